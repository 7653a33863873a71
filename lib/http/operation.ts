import type { z } from "zod";
import { authorize } from "@/lib/auth/authorize";
import type { CapabilityId } from "@/lib/auth/capabilities";
import type { Principal } from "@/lib/auth/principal";
import { AppError, type ErrorCode } from "@/lib/errors";
import { authenticateRequest, requireActivePlan, requireActiveWorkspace } from "./authenticate";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  fingerprint,
  releaseIdempotencyKey,
  validateIdempotencyKey,
} from "./idempotency";
import { enforceRateLimit, rateLimitHeaders, type RateLimitResult } from "./rate-limit";
import { parseJsonText, readBodyText } from "./request-body";
import { describeZodError, errorResponse, json, newRequestId, REQUEST_ID_HEADER, toErrorResponse } from "./responses";
import { assertTextInput, TEXT_INPUT_LIMITS } from "./text-input";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const MUTATING: ReadonlySet<HttpMethod> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface ApiResult<R> {
  status: number;
  body: R;
  headers?: Record<string, string>;
}

export interface OperationContext<Q, B, P> {
  principal: Principal;
  query: Q;
  body: B;
  params: P;
  request: Request;
  requestId: string;
}

/**
 * One REST operation: its contract (read by the OpenAPI generator) and its handler.
 * The schemas here are the only description of the request and response.
 */
export interface OperationDef<Q = unknown, B = unknown, P = unknown, R = unknown> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/api/v1/uploads/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** What the caller must be allowed (see lib/auth/capabilities.ts); null when the handler authorizes by ownership. */
  capability: CapabilityId | null;
  /** Also accept the dashboard's session cookie. */
  allowSession?: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  /** A JSON body. */
  body?: z.ZodType<B>;
  /** A body the handler streams itself (multipart); documented with this schema. */
  streamedBody?: { contentType: string; schema: Record<string, unknown> };
  success: { status: number; description: string; schema?: z.ZodType<R> };
  /** The handler applies the Idempotency-Key header itself (tool calls, whose key may also arrive in the arguments). */
  handlesIdempotency?: boolean;
  /** Errors this operation can answer besides the ones every operation can (401, 402, 403, 429, 500). */
  errors?: ErrorCode[];
  handler: (ctx: OperationContext<Q, B, P>) => Promise<ApiResult<R> | Response>;
}

export function defineOperation<Q = undefined, B = undefined, P = undefined, R = unknown>(
  def: OperationDef<Q, B, P, R>,
): OperationDef<Q, B, P, R> {
  return def;
}

type RouteSegment = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (request: Request, segment: RouteSegment) => Promise<Response>;

function parseWith<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError("invalid_request", `Invalid ${where}: ${describeZodError(result.error)}`);
  return result.data;
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

/**
 * The shared behaviour of every /api/v1 route: request id, authentication,
 * rate limit, workspace and plan checks, permission and scope, validation,
 * idempotency, and the error envelope.
 */
export function handle<Q, B, P, R>(def: OperationDef<Q, B, P, R>): RouteHandler {
  return async (request, segment) => {
    const requestId = newRequestId();
    let limits: RateLimitResult | undefined;
    try {
      const principal = await authenticateRequest(request, { allowSession: def.allowSession });
      limits = await enforceRateLimit(principal.keyId ?? `user:${principal.userId}`);
      requireActiveWorkspace(principal);
      requireActivePlan(principal);
      if (def.capability) authorize(principal, def.capability);

      const url = new URL(request.url);
      const rawParams = await segment.params;
      const rawQuery = Object.fromEntries(url.searchParams);
      const bodyText = def.body ? await readBodyText(request) : "";
      const rawBody = parseJsonText(bodyText);
      // Text input is checked once, here at the edge, before any schema or query sees it (lib/http/text-input.ts).
      assertTextInput(rawParams, "path parameters", { maxStringLength: TEXT_INPUT_LIMITS.maxUrlValueLength });
      assertTextInput(rawQuery, "query parameters", { maxStringLength: TEXT_INPUT_LIMITS.maxUrlValueLength });
      assertTextInput(rawBody, "request body", { maxStringLength: TEXT_INPUT_LIMITS.maxJsonStringLength });
      const params = parseWith(def.params, rawParams, "path parameters");
      const query = parseWith(def.query, rawQuery, "query parameters");
      const body = parseWith(def.body, rawBody, "request body");

      const ctx: OperationContext<Q, B, P> = { principal, query, body, params, request, requestId };
      const idempotencyKey = request.headers.get("idempotency-key");
      const response =
        idempotencyKey !== null && MUTATING.has(def.method) && !def.handlesIdempotency
          ? await runIdempotently(def, ctx, validateIdempotencyKey(idempotencyKey), requestFingerprint(def, url, request, bodyText))
          : toResponse(await def.handler(ctx));
      return withHeaders(response, { [REQUEST_ID_HEADER]: requestId, ...rateLimitHeaders(limits) });
    } catch (err) {
      const response = toErrorResponse(err, requestId);
      return withHeaders(response, { [REQUEST_ID_HEADER]: requestId, ...(limits && !response.headers.has("X-RateLimit-Limit") ? rateLimitHeaders(limits) : {}) });
    }
  };
}

function toResponse<R>(result: ApiResult<R> | Response): Response {
  return result instanceof Response ? result : json(result.body, result.status, result.headers);
}

/** Streamed bodies cannot be hashed before they are consumed: their length and type stand in for them. */
function requestFingerprint(def: OperationDef<any, any, any, any>, url: URL, request: Request, bodyText: string): string {
  const bodyPart = def.streamedBody
    ? `${request.headers.get("content-type")?.split(";")[0]}|${request.headers.get("content-length") ?? ""}`
    : bodyText;
  return fingerprint(def.method, url.pathname, url.search, bodyPart);
}

async function runIdempotently<Q, B, P, R>(
  def: OperationDef<Q, B, P, R>,
  ctx: OperationContext<Q, B, P>,
  key: string,
  requestFingerprint: string,
): Promise<Response> {
  const claim = await claimIdempotencyKey(ctx.principal.workspaceId, key, requestFingerprint);
  if (claim.kind === "replay") {
    return new Response(claim.response.body, {
      status: claim.response.status,
      headers: { "Content-Type": "application/json; charset=utf-8", "Idempotent-Replayed": "true" },
    });
  }
  let response: Response;
  try {
    response = toResponse(await def.handler(ctx));
  } catch (err) {
    const failure = toErrorResponse(err, ctx.requestId);
    await settle(claim, failure.clone());
    return failure;
  }
  await settle(claim, response.clone());
  return response;
}

/** Keeps the first answer for replay, except failures the client should be free to retry. */
async function settle(claim: { workspaceId: string; key: string }, response: Response): Promise<void> {
  const retryable = response.status >= 500 || response.status === 409 || response.status === 429;
  if (retryable) return releaseIdempotencyKey(claim);
  await completeIdempotencyKey(claim, { status: response.status, body: await response.text() });
}

/** Route-file helper: every method of a path, unsupported ones answering 405 in the envelope. */
export function routeMethods(ops: Partial<Record<HttpMethod, OperationDef<any, any, any, any>>>): Record<HttpMethod, RouteHandler> {
  const allowed = Object.keys(ops).join(", ");
  const notAllowed: RouteHandler = async () =>
    errorResponse("method_not_allowed", `Method not allowed; this path supports ${allowed}`, { Allow: allowed });
  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
  return Object.fromEntries(methods.map((m) => [m, ops[m] ? handle(ops[m]!) : notAllowed])) as Record<HttpMethod, RouteHandler>;
}
