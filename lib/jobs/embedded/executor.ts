import { canonicalJson, SIGNATURE_HEADER, signBody } from "./signature";
import type { JobEventPayload, JsonValue, StepResult } from "./types";

/** The serve handler's POST, called in-process with a web Request. */
export type ServeHandler = (req: Request) => Promise<Response>;

/** Host used for in-process calls and the client's event API; never resolved on the network. */
export const EMBEDDED_ORIGIN = "http://embedded.adloom.invalid";

export interface ExecutionRequest {
  functionId: string;
  /** "step" to run the function until its next op, or a planned step's hashed id to run that step. */
  stepId: string;
  runId: string;
  event: JobEventPayload;
  steps: { stepId: string; result: StepResult }[];
  attempt: number;
  maxAttempts: number;
  version: number | null;
  /** Let the SDK report each new step through a checkpoint and go on in the same request. */
  checkpoint?: boolean;
}

export interface ExecutionResponse {
  status: number;
  headers: Headers;
  body: JsonValue;
}

/** Drives one execution through the SDK's executor protocol, signing the request like Inngest does. */
export async function callFunction(handler: ServeHandler, signingKey: string, req: ExecutionRequest): Promise<ExecutionResponse> {
  const stack = req.steps.map((s) => s.stepId);
  const payload = {
    event: req.event,
    events: [req.event],
    steps: Object.fromEntries(req.steps.map((s) => [s.stepId, s.result])),
    ctx: {
      run_id: req.runId,
      attempt: req.attempt,
      max_attempts: req.maxAttempts,
      stack: { stack, current: Math.max(0, stack.length - 1) },
      ...(req.checkpoint ? { fn_id: req.functionId, qi_id: req.runId } : {}),
    },
    version: req.version ?? -1,
  };
  // Signed with the wall clock (the SDK checks freshness), whatever clock the runner schedules by.
  // The SDK verifies the signature over the canonical form of the parsed body, so we send exactly that.
  const body = canonicalJson(payload);
  const url = new URL("/api/inngest", EMBEDDED_ORIGIN);
  url.searchParams.set("fnId", req.functionId);
  url.searchParams.set("stepId", req.stepId);
  const res = await handler(
    new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", [SIGNATURE_HEADER]: signBody(body, signingKey) },
      body,
    }),
  );
  const text = await res.text();
  let parsed: JsonValue;
  try {
    parsed = text ? (JSON.parse(text) as JsonValue) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
