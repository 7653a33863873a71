import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { AppError, asAppError, badRequest, type ErrorBody, type ErrorCode, isAppError } from "@/lib/errors";
import { fingerprint, IDEMPOTENCY_KEY_MAX_LENGTH, runIdempotently, type StreamedBodyDigests, validateIdempotencyKey } from "@/lib/idempotency";
import { canonicalJson } from "@/lib/json/canonical-json";
import { describeZodError } from "@/lib/errors";
import { assertTextInput } from "@/lib/text-input";
import { findTool } from "./catalog";
import { invalidInput, toToolError } from "./errors";
import type { ToolDefinition, ToolResult } from "./types";

/** What a tool call answered: a result or an error envelope, with the HTTP status it maps to. */
export type ToolCallOutcome =
  | { ok: true; status: 200; body: { result: ToolResult }; replayed: boolean }
  | { ok: false; status: number; body: ErrorBody; replayed: boolean; headers: Record<string, string> };

export interface ToolCallOptions {
  /** An Idempotency-Key that came beside the arguments (the REST header); must agree with `idempotencyKey` in them. */
  idempotencyKey?: string | null;
  /**
   * How a curated REST route (a tool's `rest` binding) hands its request over. The route keeps
   * its own error codes (`invalid_request` and the domain's, not the tool set), takes the
   * idempotency key from the header only, and reads its arguments from the request's parts
   * itself (their own text limits and messages); `args` is then ignored.
   */
  rest?: RestEdge;
}

export interface RestEdge {
  /** Text-checks and validates the request's parts and merges them into the tool's arguments; throws AppError. Runs after authorization. */
  readArgs: (tool: ToolDefinition) => Promise<Record<string, unknown>>;
  /** Runs the call in place of the tool's handler (a streamed multipart body, which no schema describes). */
  run?: (principal: Principal) => Promise<ToolResult>;
  /** The idempotency fingerprint's input for `run` (a streamed body cannot be hashed before it is read). */
  streamFingerprint?: string;
  /** The digests of `run`'s streamed body and of a repeat's, compared before a repeat is replayed. */
  streamedBody?: StreamedBodyDigests;
}

/**
 * Calls a tool by name for the principal, on any surface: REST (the tool route and the curated
 * routes), MCP, the dashboard's server actions. Checks, in order and once each: the tool exists
 * (404), the principal may use it (403), the text of the input (lib/text-input.ts), the arguments
 * are valid (400 `Invalid input:`), the idempotency key (409); then runs it. Failures come back
 * mapped to the tool error codes (a REST route's keep the domain's); only unexpected exceptions
 * are thrown (they become 500 `internal_error`).
 */
export async function callTool(principal: Principal, name: string, args: unknown, options: ToolCallOptions = {}): Promise<ToolCallOutcome> {
  const outward = options.rest ? (err: AppError) => err : toToolError;
  try {
    const tool = findTool(name);
    if (!tool) throw new AppError("not_found", `Unknown tool "${name}"; GET /api/v1/tools lists them`);
    authorize(principal, tool.capability);

    let idempotencyKey: string | null;
    let input: unknown;
    if (options.rest) {
      input = await options.rest.readArgs(tool);
      idempotencyKey = options.idempotencyKey == null ? null : validateIdempotencyKey(options.idempotencyKey);
    } else {
      // NUL bytes, unpaired surrogates and absurd nesting never reach a schema or the database (lib/text-input.ts).
      assertTextInput(args, null, { error: invalidInput });
      ({ idempotencyKey, rest: input } = splitIdempotencyKey(args, options.idempotencyKey ?? null));
    }

    const run = options.rest?.run;
    let handle: () => Promise<ToolResult>;
    let fingerprintInput: () => string;
    if (run) {
      handle = () => run(principal);
      fingerprintInput = () => options.rest?.streamFingerprint ?? "";
    } else {
      const parsed = tool.input.safeParse(input);
      if (!parsed.success)
        throw options.rest ? badRequest(`Invalid arguments: ${describeZodError(parsed.error)}`) : invalidInput(describeZodError(parsed.error));
      handle = () => tool.handler(principal, parsed.data);
      // The parsed arguments, so a REST route and the tool route called alike share one fingerprint.
      fingerprintInput = () => canonicalJson(parsed.data);
    }

    if (idempotencyKey === null || tool.readOnly) return success(await handle());
    const outcome = await runIdempotently(
      {
        workspaceId: principal.workspaceId,
        key: idempotencyKey,
        fingerprint: fingerprint("tool", name, fingerprintInput()),
        streamedBody: run ? options.rest?.streamedBody : undefined,
      },
      async (): Promise<ToolCallOutcome> => {
        try {
          return success(await handle());
        } catch (err) {
          const known = asAppError(err);
          if (!known) throw err;
          // Stored as the domain said it; each surface maps it on the way out, a replay too.
          return failure(known);
        }
      },
      (value) => ({ status: value.status, body: JSON.stringify(value.body) }),
    );
    if (!outcome.replayed) return outcome.value.ok ? outcome.value : failure(outward(fromOutcome(outcome.value)));
    const body = JSON.parse(outcome.response.body) as { result: ToolResult } | ErrorBody;
    if ("result" in body) return { ok: true, status: 200, body, replayed: true };
    const replayed = failure(outward(new AppError(body.error.code as ErrorCode, body.error.message)));
    return { ...replayed, replayed: true, headers: {} };
  } catch (err) {
    const mapped = options.rest ? asAppError(err) : toToolError(err);
    if (!isAppError(mapped)) throw err;
    return failure(mapped);
  }
}

function success(result: ToolResult): ToolCallOutcome {
  return { ok: true, status: 200, body: { result }, replayed: false };
}

function failure(err: AppError): ToolCallOutcome & { ok: false } {
  return { ok: false, status: err.status, body: err.toBody(), replayed: false, headers: err.headers };
}

function fromOutcome(outcome: ToolCallOutcome & { ok: false }): AppError {
  return new AppError(outcome.body.error.code as ErrorCode, outcome.body.error.message, outcome.headers);
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

/** The category of a tool of the catalog, or null for an unknown name (a surface that serves only some categories). */
export function toolCategory(name: string): string | null {
  return findTool(name)?.category ?? null;
}
