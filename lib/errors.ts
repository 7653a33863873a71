import type { z, ZodError } from "zod";

/**
 * Errors are values with codes. One table maps every code to its HTTP status;
 * the route wrapper, the OpenAPI document, the MCP layer and the SDK all read it.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, description: "Malformed request body or parameters" },
  invalid_input: { status: 400, description: "Bad or missing tool arguments, or a platform precondition the caller must fix" },
  tool_error: { status: 400, description: "A tool failed for a reason its message explains" },
  limit_exceeded: { status: 400, description: "A size or count cap was hit" },
  not_connected: { status: 400, description: "A platform or integration connection is needed first" },
  unauthorized: { status: 401, description: "Missing or invalid API key" },
  subscription_required: { status: 402, description: "An active paid plan is required" },
  plan_required: { status: 402, description: "A (higher) subscription plan is needed" },
  forbidden: { status: 403, description: "The key's creator lacks the permission for the action" },
  two_factor_required: { status: 403, description: "The action needs two-factor authentication" },
  not_found: { status: 404, description: "Resource not found or not visible to the account" },
  conflict: { status: 409, description: "The resource's state does not allow the operation" },
  workspace_changed: { status: 409, description: "The request targeted a workspace that is no longer active" },
  method_not_allowed: { status: 405, description: "The path does not support this HTTP method" },
  rate_limited: { status: 429, description: "Too many requests; retry after the Retry-After header" },
  internal_error: { status: 500, description: "Server-side failure" },
  upstream_error: { status: 502, description: "The ad platform or provider rejected the request" },
  upstream_busy: { status: 503, description: "The ad platform is rate limiting; retry shortly" },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

export const badRequest = (message: string) => new AppError("invalid_request", message);
export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found`);
export const conflict = (message: string) => new AppError("conflict", message);
export const forbidden = (message: string) => new AppError("forbidden", message);

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError || (typeof err === "object" && err !== null && (err as { name?: string }).name === "AppError" && "code" in err);
}

/**
 * The AppError a failure answers with: an AppError as it is. The database's "record not found" and
 * "foreign key violated" (the ORM's P2025 and P2003) read as `not_found`: a domain function checks a
 * resource before it writes it or something under it, every relation cascades on delete, so only a
 * request removing that resource in between makes the write miss. Undefined for anything else (our
 * fault: internal_error). Told by name and code, so this module imports no layer.
 */
export function asAppError(err: unknown): AppError | undefined {
  if (isAppError(err)) return err;
  const e = err as { name?: unknown; code?: unknown } | null;
  if (typeof e !== "object" || e === null || e.name !== "PrismaClientKnownRequestError") return undefined;
  if (e.code === "P2025") return new AppError("not_found", "Not found: it was removed while this request was being served");
  if (e.code === "P2003") return new AppError("not_found", "Not found: what it belongs to was removed while this request was being served");
  return undefined;
}

/** "ids: Too small..." — zod issues as one readable line. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

/** `value` as `schema` reads it, or 400 `invalid_request` "Invalid <where>: …" naming what is wrong. */
export function parseOrRefuse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError("invalid_request", `Invalid ${where}: ${describeZodError(result.error)}`);
  return result.data;
}
