import { ERROR_STATUS, type ApiErrorCode } from "./generated/errors.js";

/** Every error code the API documents (generated from the server's table); anything else a server sends reads as `tool_error`. */
export const KNOWN_ERROR_CODES = Object.keys(ERROR_STATUS) as ApiErrorCode[];

/** `network_error` is the client's own: the request never got an HTTP answer. */
export type AdloomErrorCode = ApiErrorCode | "network_error";

/** The code an answer without one is read as: the first documented code of its status (5xx: internal_error). */
const CODE_BY_STATUS = new Map<number, AdloomErrorCode>();
for (const [code, status] of Object.entries(ERROR_STATUS) as [ApiErrorCode, number][]) {
  if (status < 500 && !CODE_BY_STATUS.has(status)) CODE_BY_STATUS.set(status, code);
}

/** The one error the client library throws: match on `code`, show `message`. */
export class AdloomError extends Error {
  readonly code: AdloomErrorCode;
  /** HTTP status; 0 when the server was never reached. */
  readonly status: number;
  /** The code exactly as the server sent it (differs from `code` when it was unknown). */
  readonly rawCode: string | null;
  readonly requestId: string | null;
  /** Seconds the server asked to wait (429). */
  readonly retryAfter: number | null;

  constructor(init: {
    code: AdloomErrorCode;
    status: number;
    message: string;
    rawCode?: string | null | undefined;
    requestId?: string | null | undefined;
    retryAfter?: number | null | undefined;
  }) {
    super(init.message);
    this.name = "AdloomError";
    this.code = init.code;
    this.status = init.status;
    this.rawCode = init.rawCode ?? init.code;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }

  /** Builds the error from an HTTP answer's status, headers and parsed body (envelope or bare `{ message }`). */
  static fromResponse(status: number, headers: Headers, body: unknown): AdloomError {
    const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    const bare = body as { message?: unknown } | null;
    const rawCode = typeof error?.code === "string" ? error.code : null;
    const message = typeof error?.message === "string" ? error.message : typeof bare?.message === "string" ? bare.message : `HTTP ${status}`;
    const code: AdloomErrorCode =
      rawCode === null
        ? (CODE_BY_STATUS.get(status) ?? (status >= 500 ? "internal_error" : "tool_error"))
        : (KNOWN_ERROR_CODES as readonly string[]).includes(rawCode)
          ? (rawCode as AdloomErrorCode)
          : "tool_error";
    const retryAfter = parseRetryAfter(headers.get("retry-after"));
    return new AdloomError({ code, status, message, rawCode, requestId: headers.get("x-request-id"), retryAfter });
  }
}

/** Retry-After in seconds: a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}
