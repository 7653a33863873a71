import { ZodError } from "zod";
import { AppError, asAppError, describeZodError, type ErrorCode } from "@/lib/errors";

/** The spec's closed (additive) set of tool error codes. */
export const TOOL_ERROR_CODES = [
  "invalid_input",
  "tool_error",
  "limit_exceeded",
  "not_connected",
  "plan_required",
  "forbidden",
  // Added after the spec's first set (the set is additive): the same refusal REST answers (Authentication 9).
  "two_factor_required",
  "not_found",
  "conflict",
  "upstream_error",
  "upstream_busy",
] as const satisfies readonly ErrorCode[];

export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/**
 * Codes that come from around the call rather than from the tool (key, plan, rate limit,
 * workspace, our own crash); they keep their general meaning on every surface.
 */
const PASS_THROUGH: ReadonlySet<ErrorCode> = new Set(["unauthorized", "subscription_required", "rate_limited", "workspace_changed", "internal_error"]);

const DOMAIN_TO_TOOL: Partial<Record<ErrorCode, ToolErrorCode>> = {
  invalid_request: "invalid_input",
};

/** The error a tool call answers with: domain codes mapped into the tool code set; anything unknown reads as tool_error. */
export function toToolError(err: unknown): AppError {
  if (err instanceof ZodError) return invalidInput(describeZodError(err));
  const known = asAppError(err);
  if (!known) return err as AppError; // not ours: the caller's envelope turns it into internal_error
  const code = known.code as ErrorCode;
  if (PASS_THROUGH.has(code) || (TOOL_ERROR_CODES as readonly string[]).includes(code)) return known;
  const mapped = DOMAIN_TO_TOOL[code] ?? "tool_error";
  const message = mapped === "invalid_input" && !known.message.startsWith("Invalid input:") ? `Invalid input: ${known.message}` : known.message;
  return new AppError(mapped, message, known.headers);
}

/** 400 `invalid_input`: the message starts `Invalid input:` and names the offending path. */
export function invalidInput(detail: string): AppError {
  return new AppError("invalid_input", `Invalid input: ${detail}`);
}
