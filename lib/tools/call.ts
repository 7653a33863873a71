import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { AppError, type ErrorBody, isAppError } from "@/lib/errors";
import { fingerprint, IDEMPOTENCY_KEY_MAX_LENGTH, runIdempotently } from "@/lib/idempotency";
import { canonicalJson } from "@/lib/json/canonical-json";
import { describeZodError } from "@/lib/errors";
import { assertTextInput } from "@/lib/text-input";
import { findTool } from "./catalog";
import { invalidInput, toToolError } from "./errors";
import type { ToolResult } from "./types";

/** What a tool call answered: a result or an error envelope, with the HTTP status it maps to. */
export type ToolCallOutcome =
  | { ok: true; status: 200; body: { result: ToolResult }; replayed: boolean }
  | { ok: false; status: number; body: ErrorBody; replayed: boolean; headers: Record<string, string> };

export interface ToolCallOptions {
  /** An Idempotency-Key that came beside the arguments (the REST header); must agree with `idempotencyKey` in them. */
  idempotencyKey?: string | null;
}

/**
 * Calls a tool by name for the principal, on any surface. Checks, in order: the tool
 * exists (404), the principal may use it (403), the arguments are valid (400 `Invalid input:`),
 * the idempotency key (409); then runs it. Failures come back mapped to the tool error codes;
 * only unexpected exceptions are thrown (they become 500 `internal_error`).
 */
export async function callTool(principal: Principal, name: string, args: unknown, options: ToolCallOptions = {}): Promise<ToolCallOutcome> {
  try {
    const tool = findTool(name);
    if (!tool) throw new AppError("not_found", `Unknown tool "${name}"; GET /api/v1/tools lists them`);
    authorize(principal, tool.capability);
    // NUL bytes, unpaired surrogates and absurd nesting never reach a schema or the database (lib/text-input.ts).
    assertTextInput(args, null, { error: invalidInput });

    const { idempotencyKey, rest } = splitIdempotencyKey(args, options.idempotencyKey ?? null);
    const parsed = tool.input.safeParse(rest);
    if (!parsed.success) throw invalidInput(describeZodError(parsed.error));

    if (idempotencyKey === null || tool.readOnly) return success(await tool.handler(principal, parsed.data));
    const outcome = await runIdempotently(
      { workspaceId: principal.workspaceId, key: idempotencyKey, fingerprint: fingerprint("tool", name, canonicalJson(rest)) },
      async (): Promise<ToolCallOutcome> => {
        try {
          return success(await tool.handler(principal, parsed.data));
        } catch (err) {
          if (!isAppError(err)) throw err;
          return failure(toToolError(err));
        }
      },
      (value) => ({ status: value.status, body: JSON.stringify(value.body) }),
    );
    if (!outcome.replayed) return outcome.value;
    const body = JSON.parse(outcome.response.body) as { result: ToolResult } | ErrorBody;
    return "result" in body
      ? { ok: true, status: 200, body, replayed: true }
      : { ok: false, status: outcome.response.status, body, replayed: true, headers: {} };
  } catch (err) {
    const mapped = toToolError(err);
    if (!isAppError(mapped)) throw err;
    return failure(mapped);
  }
}

function success(result: ToolResult): ToolCallOutcome {
  return { ok: true, status: 200, body: { result }, replayed: false };
}

function failure(err: AppError): ToolCallOutcome {
  return { ok: false, status: err.status, body: err.toBody(), replayed: false, headers: err.headers };
}

/** Takes `idempotencyKey` out of the arguments; it may also arrive beside them (REST header). */
function splitIdempotencyKey(args: unknown, fromHeader: string | null): { idempotencyKey: string | null; rest: Record<string, unknown> } {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) throw invalidInput("the arguments must be a JSON object");
  const { idempotencyKey: fromArgs, ...rest } = args as Record<string, unknown>;
  if (fromArgs !== undefined && (typeof fromArgs !== "string" || fromArgs.length === 0 || fromArgs.length > IDEMPOTENCY_KEY_MAX_LENGTH)) {
    throw invalidInput(`idempotencyKey: must be a string of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  if (fromHeader !== null && (fromHeader.length === 0 || fromHeader.length > IDEMPOTENCY_KEY_MAX_LENGTH)) {
    throw invalidInput(`Idempotency-Key: must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  if (fromArgs !== undefined && fromHeader !== null && fromArgs !== fromHeader) {
    throw invalidInput("idempotencyKey: differs from the Idempotency-Key header; send one of them");
  }
  return { idempotencyKey: (fromArgs as string | undefined) ?? fromHeader, rest };
}
