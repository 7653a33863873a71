import { assertCleanText, corsPreflight, oauthRoute, withCors } from "@/lib/http/oauth-route";
import { parseJsonText, readBodyText } from "@/lib/http/request-body";
import { json } from "@/lib/http/responses";
import { registerClient } from "@/lib/oauth/clients";

// RFC 7591 dynamic client registration (public clients, PKCE).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return withCors(
    await oauthRoute(async () => {
      const body = parseJsonText(await readBodyText(request, 64 * 1024));
      assertCleanText(body);
      return json(await registerClient(body), 201);
    }),
  );
}

export { corsPreflight as OPTIONS };
