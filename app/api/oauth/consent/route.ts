import { sameOriginSessionUserId } from "@/lib/http/authenticate";
import { assertCleanText, oauthErrorResponse, oauthRoute } from "@/lib/http/oauth-route";
import { readBodyText } from "@/lib/http/request-body";
import { requestOrigin } from "@/lib/http/request-origin";
import { json } from "@/lib/http/responses";
import { errorRedirect, readAuthorizationParams, RedirectableOAuthError, validateAuthorizationRequest } from "@/lib/oauth/authorization-request";
import { approveConsent, denyConsent } from "@/lib/oauth/consent";
import { isOAuthError, OAuthError } from "@/lib/oauth/errors";

// The consent form's post (dashboard session, same origin): Allow issues a code for the chosen
// workspace and scopes, Deny sends access_denied; both go back to the client's redirect URI.
// A browser form gets 303; the page's script asks for JSON and navigates itself (the page's CSP
// form-action 'self' would block a form redirect to another origin).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const origin = requestOrigin(request);
  const wantsJson = (request.headers.get("accept") ?? "").includes("application/json");
  const goTo = (url: string) => (wantsJson ? json({ redirectTo: url }) : new Response(null, { status: 303, headers: { Location: url } }));
  return oauthRoute(async () => {
    let userId: string | null;
    try {
      userId = await sameOriginSessionUserId(request);
    } catch (err) {
      return json({ error: "access_denied", error_description: (err as Error).message }, 403);
    }
    if (!userId) return json({ error: "login_required", error_description: "Sign in to the dashboard first" }, 401);
    const form = new URLSearchParams(await readBodyText(request, 64 * 1024));
    assertCleanText([...form]);
    let authorization;
    try {
      authorization = await validateAuthorizationRequest(readAuthorizationParams(form), origin);
    } catch (err) {
      if (err instanceof RedirectableOAuthError) return goTo(errorRedirect(err, origin));
      if (isOAuthError(err)) return oauthErrorResponse(err);
      throw err;
    }
    const decision = form.get("decision");
    if (decision === "deny") return goTo(denyConsent(authorization, origin));
    if (decision !== "allow") throw new OAuthError("invalid_request", "decision must be allow or deny");
    const workspaceId = form.get("workspace_id");
    if (!workspaceId) throw new OAuthError("invalid_request", "workspace_id is required");
    return goTo(await approveConsent(userId, authorization, { workspaceId, scopes: form.getAll("scopes") }, origin));
  });
}
