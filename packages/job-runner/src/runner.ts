import { randomBytes } from "node:crypto";
import os from "node:os";
import type { InngestFunction } from "inngest";
import { exponentialBackoff, type BackoffFn } from "./backoff";
import { fireDueCrons } from "./cron-scheduler";
import { driveRun, type DriveContext } from "./drive";
import type { ServeHandler } from "./inngest-internals";
import { functionsForEvent, hasListener } from "./matching";
import { buildRegistry, type FunctionDef } from "./registry";
import type { JobSignals } from "./signals";
import type { ClaimedRun, JobRunRow, JobStore, NewRun } from "./store";
import type { Clock, SerializedError } from "./types";

export const FUNCTION_FAILED_EVENT = "inngest/function.failed";

export interface RunnerLogger {
  info(message: string): void;
  error(message: string, err?: unknown): void;
}

export interface RunnerOptions {
  /** The durable store of runs, steps, waits, events and cron schedules. */
  store: JobStore;
  /** The process's signals (wake-ups from sendEvent, step checkpoints), as the client's fetch sees them. */
  signals: () => JobSignals;
  /** A new unique id with `prefix` (runs: "run"). */
  newId: (prefix: string) => string;
  appId: string;
  functions: readonly InngestFunction.Any[];
  /** The serve handler's POST (the same one app/api/inngest exports). */
  handler: ServeHandler;
  signingKey: string;
  /** Most runs driven at once. */
  concurrency: number;
  /** Longest wait between looks at the database when nothing signals new work. */
  pollIntervalMs?: number;
  /** How long a claim lasts without a heartbeat before another runner may take the run. */
  leaseMs?: number;
  backoff?: BackoffFn;
  now?: Clock;
  /** True on PGlite: only this process can open the database, so any lease is a dead process's. */
  reclaimLeasesOnStart?: boolean;
  logger: RunnerLogger;
  /** Called when a run this runner held has ended (metrics). */
  onRunEnded?(functionId: string, status: "completed" | "failed"): void;
}

const EVENT_BATCH = 100;
/** How long a busy runner gathers wake-ups before its next pass. */
const COALESCE_MS = 10;

/** The embedded job runner: durable runs in the database, driven through the SDK's executor protocol. */
export class EmbeddedRunner {
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly registry: FunctionDef[];
  /** Functions with a concurrency limit: claimed one by one under their limit (claimLimitedRuns). */
  private readonly limited: FunctionDef[];
  private readonly limitedIds: string[];
  /** Runs of a limited function may be waiting for a slot (created, made due, or a slot freed). */
  private needLimitedClaim = true;
  private readonly drive: DriveContext;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly now: Clock;
  private readonly log: RunnerLogger;
  private loop?: Promise<void>;
  private stopping = false;
  private wakeRequested = false;
  private wakeLoop?: () => void;
  // What the next pass must look at. A pass woken by an in-process signal only does what the
  // signal calls for; a full pass (every pollIntervalMs at least) looks at everything.
  private fullRequested = true;
  private lastFullAt = 0;
  private needEvents = true;
  /** Due runs may be waiting for a free slot (a claim filled every slot, or runs were made due). */
  private needClaim = true;
  /** The run timer must be recomputed (a run was rescheduled for later). */
  private needTimer = true;
  /** Earliest known due time of a pending run that is not ours (null: none). */
  private nextRunAt: Date | null = null;
  private unsubscribe?: () => void;
  private heartbeat?: NodeJS.Timeout;
  private coalesce?: NodeJS.Timeout;
  /** Earliest upcoming cron fire time (null: no crons); undefined until first looked up. */
  private nextCronAt?: Date | null;

  constructor(private readonly opts: RunnerOptions) {
    this.registry = buildRegistry(opts.appId, opts.functions);
    this.limited = this.registry.filter((f) => f.concurrencyLimit !== null);
    this.limitedIds = this.limited.map((f) => f.id);
    this.now = opts.now ?? (() => new Date());
    this.log = opts.logger;
    this.drive = {
      store: opts.store,
      signals: opts.signals,
      handler: opts.handler,
      signingKey: opts.signingKey,
      owner: this.owner,
      functions: new Map(this.registry.map((f) => [f.id, f])),
      backoff: opts.backoff ?? exponentialBackoff(),
      now: this.now,
      onFailed: (run, error) => this.emitFailure(run, error),
      onRescheduled: () => {
        this.needTimer = true;
        this.needClaim = true;
      },
      maxRequestsPerClaim: 50,
      yielding: () => this.stopping,
      onEnded: (run, status) => opts.onRunEnded?.(run.functionId, status),
    };
  }

  get functionIds(): string[] {
    return this.registry.map((f) => f.id);
  }

  async start(): Promise<void> {
    if (this.loop) return;
    if (this.opts.reclaimLeasesOnStart) {
      const n = await this.opts.store.releaseForeignLeases(this.owner);
      if (n) this.log.info(`resuming ${n} run(s) interrupted by a previous process`);
    }
    this.unsubscribe = this.opts.signals().onWake(() => this.wakeForEvents());
    const leaseMs = this.opts.leaseMs ?? 30_000;
    this.heartbeat = setInterval(
      () => {
        const ids = [...this.inFlight.keys()];
        this.opts.store.renewLeases(this.owner, ids, new Date(this.now().getTime() + leaseMs)).catch((err) => this.log.error("lease renewal failed", err));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    this.heartbeat.unref();
    this.loop = this.run();
  }

  /**
   * Stops taking work and hands every run back: a run's step in flight finishes and is memoized,
   * then the run is released due now (its next steps run on whichever runner claims it). After
   * `graceMs` the remaining leases are released anyway; a step still running here then loses its
   * lease, and its late result is not recorded (the new owner runs the step again).
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (!this.loop) return;
    this.stopping = true;
    this.wake();
    await this.loop;
    const drained = Promise.allSettled(this.inFlight.values());
    let timer: NodeJS.Timeout | undefined;
    const timedOut = Number.isFinite(graceMs)
      ? new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)))
      : new Promise<never>(() => {});
    const outcome = await Promise.race([drained, timedOut]);
    clearTimeout(timer);
    if (outcome === "timeout") this.log.info(`${this.inFlight.size} run(s) still in a step after ${graceMs} ms: released anyway`);
    clearInterval(this.heartbeat);
    clearTimeout(this.coalesce);
    this.unsubscribe?.();
    await this.opts.store.releaseLeases(this.owner);
  }

  /** Runs driven right now by this runner (for metrics). */
  get activeRuns(): number {
    return this.inFlight.size;
  }

  /** Look for work now (everything: events, crons, due runs). */
  wake(): void {
    this.fullRequested = true;
    this.signal();
  }

  /** New events were recorded in this process. */
  private wakeForEvents(): void {
    this.needEvents = true;
    this.signalSoon();
  }

  /**
   * Wakes the loop now when idle; while runs are in flight, a few milliseconds later, so that
   * the events and freed slots of that window are handled by one pass (one batch of statements)
   * instead of one pass each.
   */
  private signalSoon(): void {
    if (this.inFlight.size === 0) return this.signal();
    this.coalesce ??= setTimeout(() => {
      this.coalesce = undefined;
      this.signal();
    }, COALESCE_MS);
  }

  private signal(): void {
    this.wakeRequested = true;
    this.wakeLoop?.();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let delay = this.opts.pollIntervalMs ?? 1000;
      try {
        delay = Math.min(delay, await this.tick());
      } catch (err) {
        this.log.error("tick failed", err);
      }
      if (this.stopping) break;
      await this.sleep(delay);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakeRequested || ms <= 0) {
      this.wakeRequested = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wakeLoop = undefined;
        this.wakeRequested = false;
        resolve();
      };
      const timer = setTimeout(() => {
        this.fullRequested = true;
        finish();
      }, ms);
      this.wakeLoop = finish;
    });
  }

  /**
   * One pass: fan out events, fire crons, claim due runs. Returns ms until the next known due time.
   * Events are matched in batches (one read, one write per batch); runs are claimed in one
   * statement with their state, so a drive of a run that never started reads nothing more.
   */
  private async tick(): Promise<number> {
    const { store } = this.opts;
    const now = this.now();
    const pollMs = this.opts.pollIntervalMs ?? 1000;
    const full = this.fullRequested || now.getTime() - this.lastFullAt >= pollMs;
    if (full) {
      this.fullRequested = false;
      this.lastFullAt = now.getTime();
      this.needEvents = this.needClaim = this.needTimer = this.needLimitedClaim = true;
    }

    if (this.nextRunAt && this.nextRunAt <= now) this.needClaim = this.needLimitedClaim = true;
    const leaseMs = this.opts.leaseMs ?? 30_000;
    if (this.needEvents) {
      this.needEvents = false;
      const { events, waits } = await store.takeEventsAndWaits(EVENT_BATCH, now);
      if (events.length) {
        const woken = waits.length ? await store.resolveEventWaitsBatch(events, waits, now) : [];
        const matched = events.flatMap((event) => functionsForEvent(this.registry, event).map((fn) => ({ fn, event })));
        // Runs of limited functions come last: they are never created claimed (their limit is checked by a claim).
        matched.sort((a, b) => Number(a.fn.concurrencyLimit !== null) - Number(b.fn.concurrencyLimit !== null));
        const runs: NewRun[] = matched.map(({ fn, event }) => ({
          id: this.opts.newId("run"),
          functionId: fn.id,
          triggerKey: `event:${event.id}`,
          event,
          maxAttempts: fn.maxAttempts,
          nextAt: now,
        }));
        const unlimited = matched.filter((m) => m.fn.concurrencyLimit === null).length;
        if (unlimited < matched.length) this.needLimitedClaim = true;
        // With no older due runs known to be waiting, new runs are created already claimed by
        // this runner (up to its free slots) and driven from memory; the rest wait in the queue.
        const free = this.needClaim || woken.length ? 0 : Math.min(unlimited, this.opts.concurrency - this.inFlight.size);
        const { created, leased } = await store.createRunsForEvents(
          runs,
          events.map((e) => e.id),
          now,
          {
            owner: this.owner,
            count: Math.max(0, free),
            until: new Date(now.getTime() + leaseMs),
          },
        );
        for (const c of leased) this.startDrive(c);
        if (created > leased.length || woken.length) this.needClaim = true;
        if (events.length === EVENT_BATCH) {
          this.needEvents = true;
          this.wakeRequested = true;
        }
      }
    }

    // Cron schedules only change when they fire: skip the lookup until the known next fire time.
    if (this.nextCronAt === undefined || (this.nextCronAt !== null && this.nextCronAt <= now)) {
      this.nextCronAt = await fireDueCrons(store, this.opts.newId, this.registry, now);
      this.needClaim = this.needLimitedClaim = true;
    }
    let free = this.opts.concurrency - this.inFlight.size;
    if (this.needClaim && free > 0) {
      const claimed = await store.claimDueRunsWithState(this.owner, free, now, leaseMs, this.limitedIds);
      for (const c of claimed) this.startDrive(c);
      // A full claim may have left more due runs: look again as soon as a slot frees.
      this.needClaim = claimed.length === free;
      free -= claimed.length;
      if (this.needLimitedClaim && free > 0) {
        this.needLimitedClaim = false;
        for (const fn of this.limited) {
          const taken = await store.claimLimitedRuns(fn.id, fn.concurrencyLimit!, this.owner, free, now, leaseMs);
          for (const c of taken) this.startDrive(c);
          free -= taken.length;
          if (free <= 0) {
            this.needClaim = this.needLimitedClaim = true;
            break;
          }
        }
      }
      if (!this.needClaim) this.needTimer = true;
    }
    if (this.needTimer && !this.needClaim) {
      this.needTimer = false;
      this.nextRunAt = await store.nextDueAt(now, this.limitedIds);
    }
    const nextCron = this.nextCronAt;
    const next = [nextCron, this.needClaim ? null : this.nextRunAt].filter((d): d is Date => d != null).map((d) => d.getTime() - now.getTime());
    return next.length ? Math.max(0, Math.min(...next)) : Number.POSITIVE_INFINITY;
  }

  private startDrive(claimed: ClaimedRun): void {
    const id = claimed.run.id;
    const p = driveRun(this.drive, claimed)
      .catch((err) => {
        this.log.error(`run ${id} failed to drive`, err);
        // Its lease runs out and it is claimed again: make sure that pass happens.
        this.needTimer = this.needClaim = true;
      })
      .finally(() => {
        this.inFlight.delete(id);
        // A slot of a limited function freed: a run of it may be waiting.
        if (this.limitedIds.includes(claimed.run.functionId)) this.needClaim = this.needLimitedClaim = true;
        if (this.needClaim) this.signalSoon();
      });
    this.inFlight.set(id, p);
  }

  private async emitFailure(run: JobRunRow, error: SerializedError): Promise<void> {
    this.log.error(`run ${run.id} of ${run.functionId} failed: ${String(error.message ?? "")}`);
    if (!hasListener(this.registry, FUNCTION_FAILED_EVENT)) return;
    await this.opts.store.recordEvents(
      [{ id: `failed-${run.id}`, name: FUNCTION_FAILED_EVENT, data: { function_id: run.functionId, run_id: run.id, error, event: run.event } }],
      this.now(),
    );
    this.wake();
  }
}
