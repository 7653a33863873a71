import type { Db } from "@/lib/db/client";
import type { JobRun } from "@/lib/generated/prisma/client";
import type { BackoffFn } from "./backoff";
import { resolveUntil, parseDuration } from "./duration";
import { callFunction, type ServeHandler } from "./executor";
import { parseExpression } from "./expression";
import { interpret, type Op, type Outcome } from "./protocol";
import type { FunctionDef } from "./registry";
import { loadRunState, NO_JSON, saveStep, toJson, updateOwnedRun } from "./run-store";
import type { Clock, JobEventPayload, JsonValue, SerializedError } from "./types";
import { addWaits, nextWaitAt, settleWaits, type NewWait } from "./wait-store";

export interface DriveContext {
  db: Db;
  handler: ServeHandler;
  signingKey: string;
  owner: string;
  functions: ReadonlyMap<string, FunctionDef>;
  backoff: BackoffFn;
  now: Clock;
  /** Called once a run has failed for good (emits `inngest/function.failed`). */
  onFailed(run: JobRun, error: SerializedError): Promise<void>;
  /** Requests per claim before the run goes back to the queue, so one long run cannot hog a slot. */
  maxRequestsPerClaim: number;
}

const UNSUPPORTED: Record<string, string> = {
  InvokeFunction: "step.invoke",
  AIGateway: "step.ai.infer",
  Gateway: "step.fetch",
  WaitForSignal: "step.waitForSignal",
  DeferAdd: "defer",
  DeferAbort: "defer",
};

/** What one request taught us about the run. */
interface StepReport {
  progressed: boolean;
  retry?: { error: SerializedError; retryAfter?: Date };
  done?: { status: "completed"; output: JsonValue } | { status: "failed"; error: SerializedError };
  planned: Op[];
  waits: NewWait[];
}

function fail(message: string): StepReport["done"] {
  return { status: "failed", error: { name: "NonRetriableError", message } };
}

function readOps(outcome: Outcome, now: Date): StepReport {
  const report: StepReport = { progressed: false, planned: [], waits: [] };
  if (outcome.kind === "completed") return { ...report, done: { status: "completed", output: outcome.output } };
  if (outcome.kind === "error") {
    if (!outcome.retriable) return { ...report, done: { status: "failed", error: outcome.error } };
    return { ...report, retry: { error: outcome.error, retryAfter: outcome.retryAfter } };
  }
  for (const op of outcome.ops) {
    switch (op.op) {
      case "StepRun":
      case "Step":
      case "StepFailed":
      case "StepPlanned":
      case "Sleep":
      case "WaitForEvent":
        break;
      case "RunComplete":
        return { ...report, done: { status: "completed", output: op.data ?? null } };
      case "StepError":
        report.retry = { error: (op.error as SerializedError | undefined) ?? { name: "Error", message: "Step failed" }, retryAfter: outcome.retryAfter };
        break;
      case "StepNotFound":
        report.retry = { error: { name: "Error", message: `Step ${op.displayName ?? op.id} was not found` } };
        break;
      case "DiscoveryRequest":
        report.progressed = true;
        break;
      default:
        return { ...report, done: fail(`${UNSUPPORTED[op.op] ?? op.op} is not supported by the embedded job runner`) };
    }
    if (op.op === "StepPlanned") report.planned.push(op);
    if (op.op === "Sleep") {
      try {
        report.waits.push({ stepId: op.id, kind: "sleep", name: op.displayName, until: resolveUntil(op.name ?? "", now) });
      } catch (err) {
        return { ...report, done: fail((err as Error).message) };
      }
    }
    if (op.op === "WaitForEvent") {
      const expression = typeof op.opts?.if === "string" ? op.opts.if : undefined;
      try {
        if (expression) parseExpression(expression);
        const timeout = typeof op.opts?.timeout === "string" ? parseDuration(op.opts.timeout) : 0;
        report.waits.push({ stepId: op.id, kind: "event", name: op.displayName, until: new Date(now.getTime() + timeout), eventName: op.name, expression });
      } catch (err) {
        return { ...report, done: fail(`step.waitForEvent: ${(err as Error).message}`) };
      }
    }
  }
  return report;
}

/**
 * Drives one claimed run: settles finished waits, calls the function until it has
 * nothing left to do right now, and persists every step result as soon as it arrives,
 * so a crash repeats at most the step that was in flight.
 */
export async function driveRun(ctx: DriveContext, runId: string): Promise<void> {
  const { db, owner } = ctx;
  for (let request = 0; request < ctx.maxRequestsPerClaim; request++) {
    await settleWaits(db, runId, ctx.now());
    const state = await loadRunState(db, runId);
    if (!state || !["queued", "running", "sleeping"].includes(state.run.status) || state.run.leaseOwner !== owner) return;
    const { run } = state;
    const fn = ctx.functions.get(run.functionId);
    if (!fn) return finish(ctx, run, fail(`Function "${run.functionId}" is not served by this app`)!);
    if (run.status !== "running" || !run.startedAt) {
      await updateOwnedRun(db, runId, owner, { status: "running", startedAt: run.startedAt ?? ctx.now() });
    }

    const exec = (stepId: string, steps = state.steps) =>
      callFunction(ctx.handler, ctx.signingKey, {
        functionId: run.functionId,
        stepId,
        runId,
        event: run.event as unknown as JobEventPayload,
        steps,
        attempt: run.attempt,
        maxAttempts: run.maxAttempts,
        version: run.requestVersion,
      });

    let response = await exec("step");
    const version = Number(response.headers.get("x-inngest-req-version"));
    const report = readOps(interpret(response, ctx.now()), ctx.now());
    if (Number.isInteger(version) && version > 0 && version !== run.requestVersion) {
      await updateOwnedRun(db, runId, owner, { requestVersion: version });
    }
    if (report.done) return finish(ctx, run, report.done);

    // A single new step runs inside the discovery request; parallel ones come back planned.
    const ran = response.status === 206 ? (response.body as unknown as Op[]) : [];
    for (const op of Array.isArray(ran) ? ran : []) {
      if (op.op === "StepRun" || op.op === "Step") {
        await saveStep(db, runId, op.id, op.displayName, { type: "data", data: op.data ?? null });
        report.progressed = true;
      } else if (op.op === "StepFailed") {
        await saveStep(db, runId, op.id, op.displayName, { type: "error", error: op.error ?? null });
        report.progressed = true;
      }
    }
    for (const planned of report.retry ? [] : report.planned) {
      response = await exec(planned.id);
      const sub = readOps(interpret(response, ctx.now()), ctx.now());
      if (sub.done?.status === "failed") return finish(ctx, run, sub.done);
      if (sub.retry) {
        report.retry = sub.retry;
        break;
      }
      for (const op of Array.isArray(response.body) ? (response.body as unknown as Op[]) : []) {
        if (op.op === "StepRun") await saveStep(db, runId, op.id, op.displayName, { type: "data", data: op.data ?? null });
        else if (op.op === "StepFailed") await saveStep(db, runId, op.id, op.displayName, { type: "error", error: op.error ?? null });
        else continue;
        report.progressed = true;
      }
    }
    await addWaits(db, runId, report.waits);

    if (report.retry) return scheduleRetry(ctx, run, report.retry);
    if (report.progressed) {
      if (run.attempt !== 0) await updateOwnedRun(db, runId, owner, { attempt: 0, error: NO_JSON });
      continue;
    }
    const wakeAt = await nextWaitAt(db, runId, ctx.now());
    if (!wakeAt) return scheduleRetry(ctx, run, { error: { name: "Error", message: "The function reported no progress" } });
    await updateOwnedRun(db, runId, owner, { status: "sleeping", nextAt: wakeAt, leaseOwner: null, leaseExpiresAt: null });
    // An event may have resolved a wait between our read and our write: look once more.
    const again = await nextWaitAt(db, runId, ctx.now());
    if (again && again.getTime() < wakeAt.getTime()) await db.jobRun.updateMany({ where: { id: runId, status: "sleeping" }, data: { nextAt: again } });
    return;
  }
  // Out of budget for this claim: let other runs have the slot.
  await updateOwnedRun(db, runId, owner, { nextAt: ctx.now(), leaseOwner: null, leaseExpiresAt: null });
}

async function scheduleRetry(ctx: DriveContext, run: JobRun, retry: { error: SerializedError; retryAfter?: Date }): Promise<void> {
  const attempt = run.attempt + 1;
  if (attempt >= run.maxAttempts) return finish(ctx, run, { status: "failed", error: retry.error });
  const nextAt = retry.retryAfter ?? new Date(ctx.now().getTime() + ctx.backoff(attempt));
  await updateOwnedRun(ctx.db, run.id, ctx.owner, {
    status: "running",
    attempt,
    error: toJson(retry.error),
    nextAt,
    leaseOwner: null,
    leaseExpiresAt: null,
  });
}

async function finish(ctx: DriveContext, run: JobRun, done: NonNullable<StepReport["done"]>): Promise<void> {
  const ended = await updateOwnedRun(ctx.db, run.id, ctx.owner, {
    status: done.status,
    ...(done.status === "completed" ? { output: toJson(done.output), error: NO_JSON } : { error: toJson(done.error) }),
    endedAt: ctx.now(),
    nextAt: null,
    leaseOwner: null,
    leaseExpiresAt: null,
  });
  if (!ended) return;
  await ctx.db.jobWait.deleteMany({ where: { runId: run.id } });
  if (done.status === "failed") await ctx.onFailed(run, done.error);
}
