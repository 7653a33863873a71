import { randomBytes, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
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
const COOKIE = "adloom_storage_oauth";
const COOKIE_PATH = "/api/import/oauth";
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
  const state = randomBytes(24).toString("base64url");
  const location = storageAuthorizeUrl(provider, { state, redirectUri: redirectUri(provider) });
  if (!location) return back({ error: `Connecting ${LABEL[provider]} needs the app: the operator sets ${ENV[provider]}.` });
  (await cookies()).set(COOKIE, `${provider}.${principal.workspaceId}.${state}`, {
    httpOnly: true,
    sameSite: "lax",
    secure: getConfig().publicBaseUrl.startsWith("https://"),
    path: COOKIE_PATH,
    maxAge: 600,
  });
  return new Response(null, { status: 303, headers: { Location: location } });
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function finishStorageConnect(provider: OAuthStorageProvider, query: URLSearchParams): Promise<Response> {
  const jar = await cookies();
  const saved = jar.get(COOKIE)?.value ?? "";
  jar.delete({ name: COOKIE, path: COOKIE_PATH });
  const [savedProvider, workspaceId, state] = saved.split(".");
  const principal = await currentPrincipal();
  if (!principal || !state || savedProvider !== provider || principal.workspaceId !== workspaceId || !sameState(state, query.get("state") ?? "")) {
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
