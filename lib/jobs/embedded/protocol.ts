import { parseRetryAfter } from "./duration";
import type { ExecutionResponse } from "./executor";
import type { JsonObject, JsonValue, SerializedError } from "./types";

/** One operation the SDK reports back (StepRun, StepError, StepFailed, StepPlanned, Sleep, ...). */
export interface Op {
  op: string;
  id: string;
  name?: string;
  displayName?: string;
  data?: JsonValue;
  error?: JsonValue;
  opts?: JsonObject;
}

export type Outcome =
  | { kind: "completed"; output: JsonValue }
  | { kind: "ops"; ops: Op[]; retryAfter?: Date }
  | { kind: "error"; error: SerializedError; retriable: boolean; retryAfter?: Date };

function asError(body: JsonValue, fallback: string): SerializedError {
  if (body && typeof body === "object" && !Array.isArray(body) && typeof body.message === "string") return body;
  if (body && typeof body === "object" && !Array.isArray(body) && typeof body.error === "string") return { name: "Error", message: body.error };
  return { name: "Error", message: typeof body === "string" && body ? body : fallback };
}

/** Reads a serve-handler reply: 200 = done, 206 = ops, anything else = an error (retriable unless told not). */
export function interpret(res: ExecutionResponse, now: Date): Outcome {
  const retryAfter = parseRetryAfter(res.headers.get("retry-after"), now);
  if (res.status === 200) return { kind: "completed", output: res.body };
  if (res.status === 206) {
    const ops = (Array.isArray(res.body) ? res.body : [res.body]) as unknown as Op[];
    return { kind: "ops", ops, retryAfter };
  }
  const noRetry = res.headers.get("x-inngest-no-retry");
  const retriable = noRetry === "true" ? false : noRetry === "false" ? true : res.status !== 400;
  return { kind: "error", error: asError(res.body, `Serve handler answered ${res.status}`), retriable, retryAfter };
}
