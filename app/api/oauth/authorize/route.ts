import { assertCleanText, oauthErrorResponse, oauthRoute } from "@/lib/http/oauth-route";
import { requestOrigin } from "@/lib/http/request-origin";
import {
  AUTHORIZATION_PARAM_NAMES,
  errorRedirect,
  readAuthorizationParams,
  RedirectableOAuthError,
  validateAuthorizationRequest,
} from "@/lib/oauth/authorization-request";
import { isOAuthError } from "@/lib/oauth/errors";
import { OAUTH_ENDPOINTS } from "@/lib/oauth/urls";

// Authorization endpoint: checks the request, then hands the browser to the consent page
// (which signs the user in first when needed). Bad client or redirect URI: an error page, never a redirect.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const redirect = (location: string) => new Response(null, { status: 302, headers: { Location: location } });

export async function GET(request: Request): Promise<Response> {
  const origin = requestOrigin(request);
  return oauthRoute(async () => {
    const params = readAuthorizationParams(new URL(request.url).searchParams);
    try {
      assertCleanText(params);
      await validateAuthorizationRequest(params, origin);
    } catch (err) {
      if (err instanceof RedirectableOAuthError) return redirect(errorRedirect(err, origin));
      if (isOAuthError(err)) return oauthErrorResponse(err, 400);
      throw err;
    }
    const forward = new URLSearchParams();
    for (const name of AUTHORIZATION_PARAM_NAMES) if (params[name] != null) forward.set(name, params[name]!);
    return redirect(`${OAUTH_ENDPOINTS.consentPage}?${forward}`);
  });
}
