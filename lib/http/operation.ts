import type { z } from "zod";
import { authorize } from "@/lib/auth/authorize";
import type { CapabilityId } from "@/lib/auth/capabilities";
import type { Principal } from "@/lib/auth/principal";
import type { ErrorCode } from "@/lib/errors";
import { fingerprint, runIdempotently, validateIdempotencyKey } from "@/lib/idempotency";
import type { HttpMethod, OtherAnswers } from "@/lib/tools/types";
import { runPipeline, stillAuthorized } from "./pipeline";
import { parseJsonText, readBodyText } from "./request-body";
import { parseOrRefuse } from "@/lib/errors";
import { json, toErrorResponse } from "./responses";
import { urlOf } from "./request-url";
import { assertTextInput, TEXT_INPUT_LIMITS } from "@/lib/text-input";

export type { HttpMethod };
/** A REST operation's method: a tool's, or HEAD (the resumable-upload protocol reads offsets with it). */
export type OperationMethod = HttpMethod | "HEAD";
const MUTATING: ReadonlySet<OperationMethod> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

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
  /** Checks the request's credentials again (for answers that outlast the request: a stream). */
  stillAuthorized: () => Promise<boolean>;
}

/**
 * One REST operation: its contract (read by the OpenAPI generator) and its handler.
 * The schemas here are the only description of the request and response.
 */
export interface OperationDef<Q = unknown, B = unknown, P = unknown, R = unknown> {
  method: OperationMethod;
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
  /** `contentType`: a body that is not JSON (a download), documented as text of that type. */
  success: { status: number; description: string; schema?: z.ZodType<R>; contentType?: string };
  /** Other non-error answers (a second success status, 206/304/416 of a download), for the document. */
  otherAnswers?: OtherAnswers;
  /**
   * The handler is a tool call (lib/tools/call.ts `callTool`), which authorizes, checks the text,
   * validates and applies the Idempotency-Key itself, once: the wrapper hands it the raw path
   * parameters and query and leaves the body unread. `capability` then only documents the route.
   */
  viaToolCall?: boolean;
  /** Errors this operation can answer besides the ones every operation can (401, 402, 403, 429, 500). */
  errors?: ErrorCode[];
  handler: (ctx: OperationContext<Q, B, P>) => Promise<ApiResult<R> | Response>;
}

export function defineOperation<Q = undefined, B = undefined, P = undefined, R = unknown>(def: OperationDef<Q, B, P, R>): OperationDef<Q, B, P, R> {
  return def;
}

type RouteSegment = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (request: Request, segment: RouteSegment) => Promise<Response>;

function parseWith<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  return schema ? parseOrRefuse(schema, value, where) : (undefined as T);
}

/**
 * An /api/v1 route: the shared pipeline (request id, authentication, rate limit, workspace and
 * plan checks, envelope), then permission and scope, validation, idempotency and the handler.
 */
export function handle<Q, B, P, R>(def: OperationDef<Q, B, P, R>): RouteHandler {
  return (request, segment) =>
    runPipeline(request, { allowSession: def.allowSession }, async ({ principal, requestId }) => {
      const recheck = () => stillAuthorized(request, { allowSession: def.allowSession }, principal, def.capability);
      const url = urlOf(request);
      const rawParams = await segment.params;
      const rawQuery = Object.fromEntries(url.searchParams);
      if (def.viaToolCall) {
        return toResponse(
          await def.handler({ principal, params: rawParams as P, query: rawQuery as Q, body: undefined as B, request, requestId, stillAuthorized: recheck }),
        );
      }
      if (def.capability) authorize(principal, def.capability);
      const bodyText = def.body ? await readBodyText(request) : "";
      const rawBody = parseJsonText(bodyText);
      // Text input is checked once, here at the edge, before any schema or query sees it (lib/text-input.ts).
      assertTextInput(rawParams, "path parameters", { maxStringLength: TEXT_INPUT_LIMITS.maxUrlValueLength });
      assertTextInput(rawQuery, "query parameters", { maxStringLength: TEXT_INPUT_LIMITS.maxUrlValueLength });
      assertTextInput(rawBody, "request body", { maxStringLength: TEXT_INPUT_LIMITS.maxJsonStringLength });
      const params = parseWith(def.params, rawParams, "path parameters");
      const query = parseWith(def.query, rawQuery, "query parameters");
      const body = parseWith(def.body, rawBody, "request body");

      const ctx: OperationContext<Q, B, P> = { principal, query, body, params, request, requestId, stillAuthorized: recheck };
      const idempotencyKey = request.headers.get("idempotency-key");
      if (idempotencyKey === null || !MUTATING.has(def.method)) return toResponse(await def.handler(ctx));

      const outcome = await runIdempotently(
        {
          workspaceId: principal.workspaceId,
          key: validateIdempotencyKey(idempotencyKey),
          fingerprint: requestFingerprint(def, url, request, bodyText),
        },
        async () => {
          try {
            return toResponse(await def.handler(ctx));
          } catch (err) {
            return toErrorResponse(err, requestId);
          }
        },
        async (response) => ({ status: response.status, body: await response.clone().text() }),
      );
      if (!outcome.replayed) return outcome.value;
      return new Response(outcome.response.body, {
        status: outcome.response.status,
        headers: { "Content-Type": "application/json; charset=utf-8", "Idempotent-Replayed": "true" },
      });
    });
}

function toResponse<R>(result: ApiResult<R> | Response): Response {
  return result instanceof Response ? result : json(result.body, result.status, result.headers);
}

/** Streamed bodies cannot be hashed before they are consumed: their length and type stand in for them. */
function requestFingerprint(def: OperationDef<any, any, any, any>, url: Pick<URL, "pathname" | "search">, request: Request, bodyText: string): string {
  const bodyPart = def.streamedBody ? `${request.headers.get("content-type")?.split(";")[0]}|${request.headers.get("content-length") ?? ""}` : bodyText;
  return fingerprint(def.method, url.pathname, url.search, bodyPart);
}
