import type { BackoffFn } from "./backoff";
import { resolveUntil, parseDuration } from "./duration";
import { parseExpression } from "./expression";
import { answeredVersion, callFunction, interpret, OP, UNSUPPORTED_OPS, type Op, type Outcome, type ServeHandler } from "./inngest-internals";
import type { FunctionDef } from "./registry";
import type { JobSignals } from "./signals";
import { PENDING, type ClaimedRun, type JobRunRow, type JobStore, type NewStep, type NewWait } from "./store";
import type { Clock, JobEventPayload, JsonValue, SerializedError } from "./types";

export interface DriveContext {
  store: JobStore;
  /** The process's signals (checkpoints reach the drive through them). */
  signals: () => JobSignals;
  handler: ServeHandler;
  signingKey: string;
  owner: string;
  functions: ReadonlyMap<string, FunctionDef>;
  backoff: BackoffFn;
  now: Clock;
  /** Called once a run has failed for good (emits `inngest/function.failed`). */
  onFailed(run: JobRunRow, error: SerializedError): Promise<void>;
  /** Called when a run was put back to wait for a later time (retry, sleep, out of budget). */
  onRescheduled?(): void;
  /** Requests per claim before the run goes back to the queue, so one long run cannot hog a slot. */
  maxRequestsPerClaim: number;
  /** Called when a run this runner held has ended (for metrics). */
  onEnded?(run: JobRunRow, status: "completed" | "failed"): void;
  /** True once the runner is shutting down: hand the run back after the step in flight. */
  yielding?(): boolean;
}

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
      case OP.StepRun:
      case OP.Step:
      case OP.StepFailed:
      case OP.StepPlanned:
      case OP.Sleep:
      case OP.WaitForEvent:
        break;
      case OP.RunComplete:
        return { ...report, done: { status: "completed", output: op.data ?? null } };
      case OP.StepError:
        report.retry = { error: (op.error as SerializedError | undefined) ?? { name: "Error", message: "Step failed" }, retryAfter: outcome.retryAfter };
        break;
      case OP.StepNotFound:
        report.retry = { error: { name: "Error", message: `Step ${op.displayName ?? op.id} was not found` } };
        break;
      case OP.DiscoveryRequest:
        report.progressed = true;
        break;
      default:
        return { ...report, done: fail(`${UNSUPPORTED_OPS[op.op] ?? op.op} is not supported by the embedded job runner`) };
    }
    if (op.op === OP.StepPlanned) report.planned.push(op);
    if (op.op === OP.Sleep) {
      try {
        report.waits.push({ stepId: op.id, kind: "sleep", name: op.displayName, until: resolveUntil(op.name ?? "", now) });
      } catch (err) {
        return { ...report, done: fail((err as Error).message) };
      }
    }
    if (op.op === OP.WaitForEvent) {
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

function stepsOf(ops: unknown, includeStep = true): NewStep[] {
  const out: NewStep[] = [];
  for (const op of Array.isArray(ops) ? (ops as Op[]) : []) {
    if (op.op === OP.StepRun || (includeStep && op.op === OP.Step))
      out.push({ stepId: op.id, name: op.displayName, result: { type: "data", data: op.data ?? null } });
    else if (op.op === OP.StepFailed) out.push({ stepId: op.id, name: op.displayName, result: { type: "error", error: op.error ?? null } });
  }
  return out;
}

/**
 * Drives one claimed run: settles finished waits, calls the function until it has
 * nothing left to do right now, and persists every step result as soon as it arrives,
 * so a crash repeats at most the step that was in flight.
 *
 * The run's state is kept in memory between requests: this runner holds the lease, so nobody
 * else writes the run's steps. Every step save checks in the same statement that the lease is
 * still ours and that no other result was recorded first; if either is not so, the drive stops
 * or re-reads the state from the database. A run with possible waits is re-read every time.
 */
export async function driveRun(ctx: DriveContext, claimed: ClaimedRun): Promise<void> {
  const { store, owner } = ctx;
  const runId = claimed.run.id;
  let run = claimed.run;
  let steps = claimed.steps;
  // A run that never started has no waits; any other may have some to settle.
  let waitsPossible = steps === null;
  let version = run.requestVersion;
  let versionDirty = false;
  const versionPatch = () => (versionDirty ? { requestVersion: version } : {});

  for (let request = 0; request < ctx.maxRequestsPerClaim; request++) {
    if (ctx.yielding?.()) break;
    if (steps === null || waitsPossible) {
      if (waitsPossible) await store.settleWaits(runId, ctx.now());
      const state = await store.loadRunState(runId);
      if (!state || !(PENDING as readonly string[]).includes(state.run.status) || state.run.leaseOwner !== owner) return;
      run = state.run;
      steps = state.steps;
      if (!versionDirty) version = run.requestVersion;
    }
    const fn = ctx.functions.get(run.functionId);
    if (!fn) return finish(ctx, run, fail(`Function "${run.functionId}" is not served by this app`)!, versionDirty ? version : null);
    if (run.status !== "running" || !run.startedAt) {
      const startedAt = run.startedAt ?? ctx.now();
      if (!(await store.updateOwnedRun(runId, owner, { status: "running", startedAt }))) return;
      run = { ...run, status: "running", startedAt };
    }

    const known = steps;
    const exec = (stepId: string, checkpoint = false) =>
      callFunction(ctx.handler, ctx.signingKey, {
        checkpoint,
        functionId: run.functionId,
        stepId,
        runId,
        event: run.event as unknown as JobEventPayload,
        // Results memoized during this iteration (checkpoints) count for later requests in it.
        steps: saved.length ? [...known, ...saved.map((st) => ({ stepId: st.stepId, result: st.result }))] : known,
        attempt: run.attempt,
        maxAttempts: run.maxAttempts,
        version,
      });

    const saved: NewStep[] = [];
    let reload = false;
    /** Memoizes `fresh`; false when the lease is no longer ours (stop driving). */
    const persist = async (fresh: NewStep[]): Promise<boolean> => {
      if (!fresh.length) return true;
      const { inserted, owned } = await store.saveStepsOwned(runId, owner, fresh, versionDirty ? version : null, ctx.now());
      if (owned) versionDirty = false;
      if (inserted < fresh.length) reload = true; // another result was recorded first: it is the one that counts
      saved.push(...fresh);
      return owned;
    };

    // A fresh attempt lets the SDK checkpoint each new step (memoized here, durably, before the
    // function goes on) and continue in the same request, instead of one request per step.
    let checkpointed = 0;
    const checkpointing = run.attempt === 0;
    const stopCheckpoints = checkpointing
      ? ctx.signals().onCheckpoint(runId, async (ops) => {
          const fresh = stepsOf(ops);
          if (!fresh.length) return true;
          const owned = await persist(fresh);
          checkpointed += fresh.length;
          // Refusing makes the SDK end the request here (the step is already memoized).
          return owned && !reload && !ctx.yielding?.();
        })
      : undefined;
    let response: Awaited<ReturnType<typeof exec>>;
    try {
      response = await exec("step", checkpointing);
    } finally {
      stopCheckpoints?.();
    }

    const answered = answeredVersion(response);
    if (answered !== null && answered !== version) {
      version = answered;
      versionDirty = true;
    }
    const report = readOps(interpret(response, ctx.now()), ctx.now());
    if (checkpointed) report.progressed = true;
    if (report.done) return finish(ctx, run, report.done, versionDirty ? version : null);

    // A single new step runs inside the discovery request; parallel ones come back planned.
    const ran = stepsOf(response.status === 206 ? response.body : []);
    if (ran.length) {
      report.progressed = true;
      if (!(await persist(ran))) return;
    }
    for (const planned of report.retry ? [] : report.planned) {
      if (ctx.yielding?.()) break; // not started: the next owner runs it
      response = await exec(planned.id);
      const sub = readOps(interpret(response, ctx.now()), ctx.now());
      if (sub.done?.status === "failed") return finish(ctx, run, sub.done, versionDirty ? version : null);
      if (sub.retry) {
        report.retry = sub.retry;
        break;
      }
      const results = stepsOf(response.body, false);
      if (results.length) {
        report.progressed = true;
        if (!(await persist(results))) return;
      }
    }
    await store.addWaits(runId, report.waits);
    if (report.waits.length) waitsPossible = true;

    if (report.retry) return scheduleRetry(ctx, run, report.retry, versionPatch());
    if (report.progressed) {
      if (run.attempt !== 0 || versionDirty) {
        if (!(await store.updateOwnedRun(runId, owner, { attempt: 0, clearError: true, ...versionPatch() }))) return;
        versionDirty = false;
        run = { ...run, attempt: 0, error: null };
      }
      // Without new results (a discovery request), re-read the run, which also re-checks the lease.
      steps = reload || !saved.length ? null : [...known, ...saved.map((s) => ({ stepId: s.stepId, result: s.result }))];
      continue;
    }
    const wakeAt = await store.nextWaitAt(runId, ctx.now());
    if (!wakeAt) return scheduleRetry(ctx, run, { error: { name: "Error", message: "The function reported no progress" } }, versionPatch());
    await store.updateOwnedRun(runId, owner, { status: "sleeping", nextAt: wakeAt, leaseOwner: null, leaseExpiresAt: null, ...versionPatch() });
    ctx.onRescheduled?.();
    // An event may have resolved a wait between our read and our write: look once more.
    const again = await store.nextWaitAt(runId, ctx.now());
    if (again && again.getTime() < wakeAt.getTime()) await store.advanceSleepingRun(runId, again);
    return;
  }
  // Out of budget for this claim, or shutting down: let other runs (or runners) have it.
  await store.updateOwnedRun(runId, owner, { nextAt: ctx.now(), leaseOwner: null, leaseExpiresAt: null, ...versionPatch() });
  ctx.onRescheduled?.();
}

async function scheduleRetry(
  ctx: DriveContext,
  run: JobRunRow,
  retry: { error: SerializedError; retryAfter?: Date },
  extra: { requestVersion?: number | null } = {},
): Promise<void> {
  const attempt = run.attempt + 1;
  if (attempt >= run.maxAttempts) return finish(ctx, run, { status: "failed", error: retry.error }, extra.requestVersion ?? null);
  const nextAt = retry.retryAfter ?? new Date(ctx.now().getTime() + ctx.backoff(attempt));
  await ctx.store.updateOwnedRun(run.id, ctx.owner, {
    status: "running",
    attempt,
    error: retry.error,
    nextAt,
    leaseOwner: null,
    leaseExpiresAt: null,
    ...extra,
  });
  ctx.onRescheduled?.();
}

async function finish(ctx: DriveContext, run: JobRunRow, done: NonNullable<StepReport["done"]>, version: number | null): Promise<void> {
  const ended = await ctx.store.finishOwnedRun(
    run.id,
    ctx.owner,
    done.status === "completed" ? { status: "completed", output: done.output } : { status: "failed", error: done.error },
    version,
    ctx.now(),
  );
  if (!ended) return;
  ctx.onEnded?.(run, done.status);
  if (done.status === "failed") await ctx.onFailed(run, done.error);
}
