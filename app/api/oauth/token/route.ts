import { corsPreflight, oauthRoute, readOAuthBody, withCors } from "@/lib/http/oauth-route";
import { requestOrigin } from "@/lib/http/request-origin";
import { json } from "@/lib/http/responses";
import { OAuthError } from "@/lib/oauth/errors";
import { exchangeCode, refreshTokens } from "@/lib/oauth/tokens";

// Token endpoint: authorization_code (with PKCE) and refresh_token (rotated).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return withCors(
    await oauthRoute(async () => {
      const body = await readOAuthBody(request);
      const origin = requestOrigin(request);
      if (body.grant_type === "authorization_code") return json(await exchangeCode(body, origin));
      if (body.grant_type === "refresh_token") return json(await refreshTokens(body, origin));
      if (!body.grant_type) throw new OAuthError("invalid_request", "grant_type is required");
      throw new OAuthError("unsupported_grant_type", `grant_type ${body.grant_type} is not supported (authorization_code, refresh_token)`);
    }),
  );
}

export { corsPreflight as OPTIONS };
