import { canonicalJson } from "./canonical-json";
import { createHmac } from "node:crypto";
import type { InngestFunction } from "inngest";
import { parseRetryAfter } from "./duration";
import type { JobEventPayload, JsonObject, JsonValue, SerializedError } from "./types";

/**
 * Every piece of the Inngest SDK the embedded runner relies on beyond its documented API.
 *
 * The runner plays the part of Inngest's server: it drives the app's own serve handler through the
 * executor protocol (how a request is signed and shaped, what the replies and their ops mean, step
 * checkpoints, the event API the client posts to, and the function configuration the SDK syncs).
 * None of that is a public, versioned contract of the SDK, so all of it is here and nowhere else;
 * `inngest-internals.test.ts` exercises each piece against the installed SDK and names this file
 * when an upgrade changes one.
 */

// ---------------------------------------------------------------------------------------------
// Request signing: what the serve handler verifies in cloud mode.

export const SIGNATURE_HEADER = "X-Inngest-Signature";

/** The SDK verifies the signature over the canonical JSON of the body (sorted keys, no whitespace). */
export { canonicalJson };

/**
 * The signature header value for a canonical body: HMAC-SHA256 keyed with the signing key minus its
 * `signkey-<env>-` prefix, over the body followed by the unix timestamp, sent as `t=<ts>&s=<hex>`.
 */
export function signBody(canonicalBody: string, signingKey: string, now = new Date()): string {
  const ts = Math.floor(now.getTime() / 1000).toString();
  const key = signingKey.replace(/^signkey-\w+-/, "");
  const mac = createHmac("sha256", key).update(canonicalBody).update(ts).digest("hex");
  return `t=${ts}&s=${mac}`;
}

// ---------------------------------------------------------------------------------------------
// Executor requests and replies.

/** The serve handler's POST, called in-process with a web Request. */
export type ServeHandler = (req: Request) => Promise<Response>;

/** Host used for in-process calls and the client's event API; never resolved on the network. */
export const EMBEDDED_ORIGIN = "http://embedded.adloom.invalid";

/** A memoized step outcome, as the executor protocol carries it in `steps`. */
export type StepResult = { type: "data"; data: JsonValue } | { type: "error"; error: JsonValue };

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
      // With these the SDK checkpoints new steps (see CHECKPOINT_PATH) instead of returning after each.
      ...(req.checkpoint ? { fn_id: req.functionId, qi_id: req.runId } : {}),
    },
    version: req.version ?? -1,
  };
  // Signed with the wall clock (the SDK checks freshness), whatever clock the runner schedules by.
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

/** The execution version the SDK answered with (to send back on the run's next request); null when absent. */
export function answeredVersion(res: ExecutionResponse): number | null {
  const answered = Number(res.headers.get("x-inngest-req-version"));
  return Number.isInteger(answered) && answered > 0 ? answered : null;
}

/** The op codes a reply can carry. */
export const OP = {
  StepRun: "StepRun",
  Step: "Step",
  StepFailed: "StepFailed",
  StepPlanned: "StepPlanned",
  StepError: "StepError",
  StepNotFound: "StepNotFound",
  Sleep: "Sleep",
  WaitForEvent: "WaitForEvent",
  RunComplete: "RunComplete",
  DiscoveryRequest: "DiscoveryRequest",
} as const;

/** Ops the runner does not implement, with the SDK feature that produces each (for the failure message). */
export const UNSUPPORTED_OPS: Record<string, string> = {
  InvokeFunction: "step.invoke",
  AIGateway: "step.ai.infer",
  Gateway: "step.fetch",
  WaitForSignal: "step.waitForSignal",
  DeferAdd: "defer",
  DeferAbort: "defer",
};

/**
 * One operation the SDK reports back. `Sleep`: `name` is the duration or date to sleep until.
 * `WaitForEvent`: `name` is the event, `opts.if` the match expression, `opts.timeout` a duration.
 */
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

// ---------------------------------------------------------------------------------------------
// Step checkpoints: `POST <api>/v1/checkpoint/<runId>/async` with `{ run_id, steps: [op, ...] }`.
// A 2xx lets the SDK go on with the function in the same request; anything else makes it stop and
// return the step in its reply instead.

const CHECKPOINT_PATH = /^\/v1\/checkpoint\/([^/]+)\/async$/;

/** A checkpoint request's run and ops; null when the request is not a checkpoint, "malformed" when its body does not fit. */
export async function readCheckpoint(url: URL, request: Request): Promise<{ runId: string; ops: unknown[] } | "malformed" | null> {
  const match = CHECKPOINT_PATH.exec(url.pathname);
  if (!match || request.method !== "POST") return null;
  const runId = decodeURIComponent(match[1]!);
  const body = (await request.json()) as { run_id?: string; steps?: unknown[] };
  if (body.run_id !== runId || !Array.isArray(body.steps)) return "malformed";
  return { runId, ops: body.steps };
}

export function checkpointReply(outcome: "accepted" | "refused" | "no-drive" | "malformed"): Response {
  switch (outcome) {
    case "accepted":
      return Response.json({ ok: true }, { status: 200 });
    case "no-drive":
      return Response.json({ error: "No drive of this run is waiting for checkpoints" }, { status: 404 });
    case "malformed":
      return Response.json({ error: "Malformed checkpoint" }, { status: 400 });
    case "refused":
      return Response.json({ error: "Checkpoint refused" }, { status: 500 });
  }
}

// ---------------------------------------------------------------------------------------------
// The event API: `inngest.send()` and `step.sendEvent()` POST the events to `<baseUrl>/e/<eventKey>`.

export function isEventApiRequest(url: URL, method: string): boolean {
  return method === "POST" && /^\/e\/[^/]+$/.test(url.pathname);
}

/** The event API's answer the client reads the event ids from. */
export function eventApiReply(ids: string[]): Response {
  return Response.json({ ids, status: 200 });
}

// ---------------------------------------------------------------------------------------------
// Function configuration: what the SDK would sync to Inngest (`getConfig` is not public API).

export interface SyncedConfig {
  /** Full id, `<appId>-<functionId>`. */
  id: string;
  name?: string;
  triggers?: ({ event: string; expression?: string } | { cron: string })[];
  /** `steps.step.retries.attempts`: retries after the first attempt. */
  steps?: Record<string, { retries?: { attempts?: number } }>;
  /** A number, one `{ limit, key?, scope? }` or a list of them. */
  concurrency?: number | ConcurrencyConfig | ConcurrencyConfig[];
  /** Every other flow-control option the function declares, by its synced name (e.g. `throttle`, `cancel`). */
  [option: string]: unknown;
}

export interface ConcurrencyConfig {
  limit: number;
  key?: string;
  scope?: "fn" | "env" | "account";
}

/** Keys every synced configuration has, whatever the function declares. */
export const SYNCED_BASE_KEYS: ReadonlySet<string> = new Set(["id", "name", "triggers", "steps"]);

type WithConfig = { getConfig(opts: { baseUrl: URL; appPrefix: string }): SyncedConfig[] };

/** The configurations a function registers (itself and, if declared, its `onFailure` handler). */
export function syncedConfigs(fn: InngestFunction.Any, appId: string): SyncedConfig[] {
  return (fn as unknown as WithConfig).getConfig({ baseUrl: new URL("http://embedded.invalid/"), appPrefix: appId });
}

/** Retries after the first attempt configured for a synced function, or undefined when it keeps the default. */
export function configuredRetries(config: SyncedConfig): number | undefined {
  return config.steps?.step?.retries?.attempts;
}
