import { authenticateApiKey } from "@/lib/auth/authenticate-api-key";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";

/**
 * Resolves who is calling. API routes take a Bearer key; routes the dashboard
 * also calls accept its signed-in session when no Authorization header is sent.
 */
export async function authenticateRequest(request: Request, options: { allowSession?: boolean } = {}): Promise<Principal> {
  const authorization = request.headers.get("authorization");
  if (authorization || !options.allowSession) return authenticateApiKey(authorization);
  const principal = await sessionPrincipal(request);
  if (!principal) throw new AppError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>");
  return principal;
}

/** The dashboard session's principal; null until dashboard sign-in exists or when signed out. */
async function sessionPrincipal(_request: Request): Promise<Principal | null> {
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
