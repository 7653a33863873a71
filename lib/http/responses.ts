import { randomUUID } from "node:crypto";
import { AppError, type ErrorCode, isAppError } from "@/lib/errors";
import { ZodError } from "zod";

export const REQUEST_ID_HEADER = "X-Request-Id";

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, "")}`;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/** An error in the envelope, with a fresh request id (for answers given outside the route wrapper). */
export function errorResponse(code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  const err = new AppError(code, message, headers);
  return json(err.toBody(), err.status, { [REQUEST_ID_HEADER]: newRequestId(), ...err.headers });
}

/** "ids: Too small..." — zod issues as one readable line. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

/** Any thrown value as an envelope response. Unknown failures are logged and never leak internals. */
export function toErrorResponse(err: unknown, requestId: string): Response {
  if (isAppError(err)) return json(err.toBody(), err.status, err.headers);
  if (err instanceof ZodError) return errorResponse("invalid_request", `Invalid request: ${describeZodError(err)}`);
  console.error(`[${requestId}] unhandled error`, err);
  return errorResponse("internal_error", `Something went wrong on our side; the request id is ${requestId}`);
}
