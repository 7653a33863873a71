import { getToken } from "next-auth/jwt";
import { authenticateApiKey } from "@/lib/auth/authenticate-api-key";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { authenticateAccessToken, isOAuthAccessToken } from "@/lib/oauth/access-token";
import { ACTIVE_WORKSPACE_COOKIE, principalForUser } from "@/lib/session/principal";
import { sessionIsCurrent } from "@/lib/session/revocation";
import { getAuthSecret } from "@/lib/session/secret";
import { findTextInputProblem } from "@/lib/text-input";

/** Auth.js names its session cookie with this prefix on HTTPS. */
const SECURE_SESSION_COOKIE = "__Secure-authjs.session-token";

/**
 * Resolves who is calling. API routes take a Bearer key; routes the dashboard
 * also calls accept its signed-in session when no Authorization header is sent.
 * `oauthResource`: this route also accepts OAuth access tokens issued for that resource (MCP only).
 */
export async function authenticateRequest(request: Request, options: { allowSession?: boolean; oauthResource?: string } = {}): Promise<Principal> {
  const authorization = request.headers.get("authorization");
  if (authorization) {
    const principal = await authenticateBearer(authorization, options.oauthResource);
    await refuseDisagreeingSession(request, principal);
    return principal;
  }
  if (!options.allowSession) return authenticateApiKey(authorization);
  const principal = await sessionPrincipal(request);
  if (!principal) throw new AppError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>");
  return principal;
}

/** An API key, or where the route takes them, an OAuth access token (told apart by prefix). */
async function authenticateBearer(authorization: string, oauthResource: string | undefined): Promise<Principal> {
  const token = authorization.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (token && isOAuthAccessToken(token)) {
    if (!oauthResource) throw new AppError("unauthorized", "OAuth access tokens are accepted only by the MCP endpoint (/api/mcp); use an API key here");
    return authenticateAccessToken(token, oauthResource);
  }
  return authenticateApiKey(authorization);
}

/**
 * A key and a dashboard session cookie in one request must name the same user and workspace:
 * otherwise which one acts is a guess, and guessing is how a request ends up in the wrong workspace.
 * (Several Authorization headers are refused before the app, see lib/server/http-edge.mjs.)
 */
async function refuseDisagreeingSession(request: Request, keyPrincipal: Principal): Promise<void> {
  if (!request.headers.get("cookie")?.includes("authjs.session-token")) return;
  const userId = await sessionUserId(request);
  if (!userId) return;
  const session = userId === keyPrincipal.userId ? await principalForUser(userId, readCookie(request, ACTIVE_WORKSPACE_COOKIE)) : null;
  if (session?.workspaceId === keyPrincipal.workspaceId) return;
  throw new AppError("invalid_request", "Ambiguous credentials: the API key and the session cookie belong to different users or workspaces; send one of them");
}

/**
 * The dashboard session's principal (its active workspace, kind "session", unscoped); null when signed out.
 * Cookie-authenticated mutating requests must come from our own pages (CSRF).
 */
async function sessionPrincipal(request: Request): Promise<Principal | null> {
  const userId = await sessionUserId(request);
  if (!userId) return null;
  assertSameOrigin(request);
  return principalForUser(userId, readCookie(request, ACTIVE_WORKSPACE_COOKIE));
}

/** The signed-in user of a cookie-authenticated form post from our own pages (CSRF checked); null when signed out. */
export async function sameOriginSessionUserId(request: Request): Promise<string | null> {
  const userId = await sessionUserId(request);
  if (userId) assertSameOrigin(request);
  return userId;
}

/**
 * The user id in the Auth.js session cookie (an encrypted JWT), read straight from the
 * request: route handlers need no Next request context, and tests can call them in-process.
 */
async function sessionUserId(request: Request): Promise<string | null> {
  const secure = request.headers.get("cookie")?.includes(`${SECURE_SESSION_COOKIE}=`) || request.headers.get("cookie")?.includes(`${SECURE_SESSION_COOKIE}.0=`);
  const token = await getToken({ req: request, secret: getAuthSecret(), secureCookie: Boolean(secure) });
  // A revoked session (sign out everywhere, new password, removed membership) ends here too.
  return token && typeof token.uid === "string" && (await sessionIsCurrent(token)) ? token.uid : null;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses cross-site requests carrying the session cookie (the API is open to other origins
 * only with a Bearer key): the browser's Sec-Fetch-Site must say same-origin, or for
 * mutating requests from older browsers, Origin must match the host.
 */
export function assertSameOrigin(request: Request): void {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (SAFE_METHODS.has(request.method) && (!fetchSite || fetchSite === "same-origin" || fetchSite === "none")) return;
  if (fetchSite) {
    if (fetchSite === "same-origin" || fetchSite === "none") return;
    throw new AppError("forbidden", "Cross-site request refused: dashboard requests must come from this site's pages");
  }
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (origin && host) {
    try {
      if (new URL(origin).host === host) return;
    } catch {
      /* malformed Origin: refused below */
    }
  }
  throw new AppError("forbidden", "Cross-site request refused: send Origin matching this host, or use an API key");
}

/** A cookie's decoded value; a value that does not decode to clean text counts as absent. */
export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k !== name) continue;
    try {
      const value = decodeURIComponent(v.join("="));
      return findTextInputProblem(value, { maxStringLength: 200 }) ? null : value;
    } catch {
      return null; // malformed percent-encoding
    }
  }
  return null;
}

/** Programmatic access needs a paid plan; the dashboard also works during the free trial. */
export function requireActivePlan(principal: Principal, now = new Date()): void {
  const { plan, trialEndsAt } = principal.workspace;
  if (plan) return;
  if (principal.kind === "session" && trialEndsAt && trialEndsAt > now) return;
  throw new AppError(
    "subscription_required",
    principal.kind === "api_key"
      ? "API access needs an active paid plan; the free trial covers the dashboard only"
      : "This workspace's trial has ended; choose a plan to continue",
  );
}

export function requireActiveWorkspace(principal: Principal): void {
  if (principal.workspace.status !== "active") {
    throw new AppError("workspace_changed", "This key's workspace is no longer active");
  }
}
