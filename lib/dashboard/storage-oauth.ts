import { issueOAuthState, takeOAuthState } from "./oauth-state";
import { can } from "@/lib/auth/authorize";
import { AppError } from "@/lib/errors";
import {
  connectOAuthStorage,
  drivePickerSession,
  OAUTH_STORAGE_PROVIDERS,
  oauthStorageSetup,
  type OAuthStorageProvider,
  storageAuthorizeUrl,
} from "@/lib/import/connections";
import { log } from "@/lib/log";
import { getConfig } from "@/lib/services";
import { currentPrincipal } from "./current";

/**
 * The Import page's Connect flow for Google Drive and Dropbox: start sends the browser to the
 * provider's consent page with a one-time state (an httpOnly cookie with the workspace), and the
 * callback checks it, exchanges the code and stores the sealed tokens as a storage connection.
 */
const STATE_COOKIE = { name: "adloom_storage_oauth", path: "/api/import/oauth" };
const PAGE = "/dashboard/import";
const LABEL: Record<OAuthStorageProvider, string> = { google_drive: "Google Drive", dropbox: "Dropbox" };
const ENV: Record<OAuthStorageProvider, string> = {
  google_drive: "GOOGLE_DRIVE_CLIENT_ID and GOOGLE_DRIVE_CLIENT_SECRET",
  dropbox: "DROPBOX_APP_KEY and DROPBOX_APP_SECRET",
};

export { oauthStorageSetup };
export type OAuthStorageSetup = ReturnType<typeof oauthStorageSetup>;

export function isOAuthStorageProvider(value: string): value is OAuthStorageProvider {
  return (OAUTH_STORAGE_PROVIDERS as readonly string[]).includes(value);
}

const redirectUri = (provider: OAuthStorageProvider) => `${getConfig().publicBaseUrl}/api/import/oauth/${provider}/callback`;
// Back to the page on the host the browser used (relative), where its session cookie lives.
const back = (params: Record<string, string>) => new Response(null, { status: 303, headers: { Location: `${PAGE}?${new URLSearchParams(params)}` } });

export async function startStorageConnect(provider: OAuthStorageProvider): Promise<Response> {
  const principal = await currentPrincipal();
  if (!principal) return new Response(null, { status: 303, headers: { Location: `/sign-in?callbackUrl=${encodeURIComponent(PAGE)}` } });
  if (!can(principal, "imports.run")) return back({ error: "Your role cannot connect file storage." });
  if (!oauthStorageSetup()[provider]) return back({ error: `Connecting ${LABEL[provider]} needs the app: the operator sets ${ENV[provider]}.` });
  const state = await issueOAuthState(STATE_COOKIE, provider, principal.workspaceId);
  const location = storageAuthorizeUrl(provider, { state, redirectUri: redirectUri(provider) })!;
  return new Response(null, { status: 303, headers: { Location: location } });
}

export async function finishStorageConnect(provider: OAuthStorageProvider, query: URLSearchParams): Promise<Response> {
  const principal = await currentPrincipal();
  if (!principal || !(await takeOAuthState(STATE_COOKIE, provider, principal.workspaceId, query.get("state") ?? ""))) {
    return back({ error: "That authorization could not be matched to this browser's Connect request; please start again." });
  }
  if (!can(principal, "imports.run")) return back({ error: "Your role cannot connect file storage." });
  const code = query.get("code");
  // Both providers send error (access_denied when the person declined) and may add error_description.
  if (!code)
    return back({ error: `${LABEL[provider]} was not connected${query.get("error") ? ` (${query.get("error_description") ?? query.get("error")})` : ""}.` });
  try {
    const { connection } = await connectOAuthStorage(principal, provider, { code, redirectUri: redirectUri(provider) });
    return back({ connected: connection.id });
  } catch (err) {
    if (err instanceof AppError) return back({ error: err.message.slice(0, 500) });
    log.error("storage connect failed", { component: "import", provider, err });
    return back({ error: `Connecting ${LABEL[provider]} failed unexpectedly; please try again.` });
  }
}

/**
 * GET /api/import/drive-picker?connectionId=...: the Google Picker's token for the signed-in member's
 * Drive connection. Same-origin dashboard requests only; another workspace's connection is not_found.
 */
export async function drivePickerResponse(request: Request): Promise<Response> {
  const fail = (code: string, message: string, status: number) =>
    Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store" } });
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return fail("forbidden", "The Picker token is for the dashboard only", 403);
  const principal = await currentPrincipal();
  if (!principal) return fail("unauthorized", "Sign in first", 401);
  if (!can(principal, "imports.run")) return fail("forbidden", "Your role cannot import files", 403);
  const connectionId = new URL(request.url).searchParams.get("connectionId") ?? "";
  if (!connectionId) return fail("invalid_input", "connectionId is required", 400);
  try {
    return Response.json(await drivePickerSession(principal, connectionId), { headers: { "Cache-Control": "no-store" } });
  } catch (err) {
    if (err instanceof AppError) return fail(err.code, err.message, err.status);
    throw err;
  }
}
