import type { ZodError } from "zod";

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

/** "ids: Too small..." — zod issues as one readable line. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}
