import { corsPreflight, oauthRoute, readOAuthBody, withCors } from "@/lib/http/oauth-route";
import { revokeToken } from "@/lib/oauth/tokens";

// RFC 7009 token revocation: either token of a connection ends the whole connection.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return withCors(
    await oauthRoute(async () => {
      await revokeToken(await readOAuthBody(request));
      return new Response(null, { status: 200 });
    }),
  );
}

export { corsPreflight as OPTIONS };
