import { randomUUID } from "node:crypto";
import { AppError, asAppError, describeZodError, type ErrorCode } from "@/lib/errors";
import { ZodError } from "zod";
import { log } from "@/lib/log";
import { currentRequestAborted, currentRequestId } from "@/lib/observability/request-context";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** The id of the request being served (given at the HTTP server, lib/server/http-observer.ts), else a fresh one. */
export function newRequestId(): string {
  return currentRequestId() ?? `req_${randomUUID().replace(/-/g, "")}`;
}

// Next.js gzips responses of 1 KB and more, but cannot see an app route's length and so compresses
// every answer; `no-transform` (which its compression honours) spares the small ones, for which
// gzip costs CPU and saves nothing.
const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Each json() answer's text, so that a Pages API route writes it as it is rather than reading it back from the Response's stream. */
const jsonBodyTexts = new WeakMap<Response, string>();

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const small = text.length < COMPRESSION_THRESHOLD_BYTES && Buffer.byteLength(text) < COMPRESSION_THRESHOLD_BYTES;
  const response = new Response(text, {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": small ? "no-store, no-transform" : "no-store", ...headers },
  });
  jsonBodyTexts.set(response, text);
  return response;
}

/** The body a json() answer was made with; undefined for any other Response. */
export function jsonBodyText(response: Response): string | undefined {
  return jsonBodyTexts.get(response);
}

/** An error in the envelope, with a fresh request id (for answers given outside the route wrapper). */
export function errorResponse(code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  const err = new AppError(code, message, headers);
  return json(err.toBody(), err.status, { [REQUEST_ID_HEADER]: newRequestId(), ...err.headers });
}

/** Any thrown value as an envelope response. Unknown failures are logged and never leak internals. */
export function toErrorResponse(err: unknown, requestId: string): Response {
  const known = asAppError(err);
  if (known) return json(known.toBody(), known.status, known.headers);
  if (err instanceof ZodError) return errorResponse("invalid_request", `Invalid request: ${describeZodError(err)}`);
  // The client went away mid-request (its access line says "request aborted"); reading its body failed for that.
  if (currentRequestAborted() || isClientAbort(err)) {
    log.debug("request failed after the client aborted", { requestId, err });
    return errorResponse("invalid_request", "The request was aborted by the client");
  }
  log.error("unhandled error", { requestId, err });
  return errorResponse("internal_error", `Something went wrong on our side; the request id is ${requestId}`);
}

/** Node's error for a request body cut off by its client (`aborted`, ECONNRESET), as the body stream surfaces it. */
function isClientAbort(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; name?: unknown } | null;
  return !!e && ((e.code === "ECONNRESET" && e.message === "aborted") || e.name === "ResponseAborted");
}
