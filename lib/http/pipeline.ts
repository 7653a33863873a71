import { authorize } from "@/lib/auth/authorize";
import type { CapabilityId } from "@/lib/auth/capabilities";
import type { Principal } from "@/lib/auth/principal";
import { isAppError } from "@/lib/errors";
import { authenticateRequest, requireActivePlan, requireActiveWorkspace } from "./authenticate";
import { enforceRateLimit, rateLimitHeaders, type RateLimitResult } from "@/lib/rate-limit/rate-limit";
import { newRequestId, REQUEST_ID_HEADER, toErrorResponse } from "./responses";

export interface PipelineOptions {
  /** Also accept the dashboard's session cookie (when no Authorization header is sent). */
  allowSession?: boolean;
  /**
   * `enforce` (default): no active plan answers 402. `defer`: the handler decides (MCP answers
   * every request with its own -32002 error instead).
   */
  plan?: "enforce" | "defer";
  /** Accept OAuth access tokens bound to this resource URL (the MCP endpoint only). */
  oauthResource?: string;
  /** Headers added to a 401, e.g. the WWW-Authenticate challenge MCP clients read. */
  unauthorizedHeaders?: Record<string, string>;
}

export interface PipelineContext {
  principal: Principal;
  requestId: string;
}

/**
 * The one sequence every API surface runs before its own work (REST routes, tool calls, MCP):
 * request id, authentication, rate limit, workspace and plan checks; and after it, the error
 * envelope and the request-id and rate-limit headers on every answer.
 */
export async function runPipeline(request: Request, options: PipelineOptions, handler: (ctx: PipelineContext) => Promise<Response>): Promise<Response> {
  const requestId = newRequestId();
  let limits: RateLimitResult | undefined;
  let response: Response;
  try {
    const principal = await authenticateRequest(request, { allowSession: options.allowSession, oauthResource: options.oauthResource });
    limits = await enforceRateLimit(principal.keyId ?? `user:${principal.userId}`);
    requireActiveWorkspace(principal);
    if (options.plan !== "defer") requireActivePlan(principal);
    response = await handler({ principal, requestId });
  } catch (err) {
    response = toErrorResponse(err, requestId);
    if (options.unauthorizedHeaders && isAppError(err) && err.code === "unauthorized") {
      for (const [k, v] of Object.entries(options.unauthorizedHeaders)) response.headers.set(k, v);
    }
  }
  response.headers.set(REQUEST_ID_HEADER, requestId);
  if (limits && !response.headers.has("X-RateLimit-Limit")) {
    for (const [k, v] of Object.entries(rateLimitHeaders(limits))) response.headers.set(k, v);
  }
  return response;
}

/**
 * Whether the request's credentials still grant, now, what they granted when its answer began: for answers that
 * last (a live stream), so a revoked key, an ended session, a removed or demoted member or a lapsed plan stops it.
 */
export async function stillAuthorized(request: Request, options: PipelineOptions, granted: Principal, capability: CapabilityId | null): Promise<boolean> {
  try {
    const principal = await authenticateRequest(request, { allowSession: options.allowSession, oauthResource: options.oauthResource });
    requireActiveWorkspace(principal);
    if (options.plan !== "defer") requireActivePlan(principal);
    if (capability) authorize(principal, capability);
    return principal.workspaceId === granted.workspaceId && principal.userId === granted.userId;
  } catch (err) {
    if (isAppError(err)) return false;
    throw err;
  }
}
