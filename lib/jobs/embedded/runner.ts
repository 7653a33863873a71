import { randomBytes } from "node:crypto";
import os from "node:os";
import type { InngestFunction } from "inngest";
import type { Db } from "@/lib/db/client";
import type { JobRun } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { exponentialBackoff, type BackoffFn } from "./backoff";
import { fireDueCrons } from "./cron-scheduler";
import { driveRun, type DriveContext } from "./drive";
import { markEventsProcessed, recordEvents, takeUnprocessedEvents } from "./event-store";
import type { ServeHandler } from "./executor";
import { functionsForEvent, hasListener } from "./matching";
import { buildRegistry, type FunctionDef } from "./registry";
import { claimDueRuns, createRuns, nextDueAt, releaseForeignLeases, releaseLeases, renewLeases } from "./run-store";
import type { Clock, SerializedError } from "./types";
import { onWake } from "./wake";
import { resolveEventWaits } from "./wait-store";

export const FUNCTION_FAILED_EVENT = "inngest/function.failed";

export interface RunnerLogger {
  info(message: string): void;
  error(message: string, err?: unknown): void;
}

export interface RunnerOptions {
  db: Db;
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
  logger?: RunnerLogger;
}

const EVENT_BATCH = 100;

/** The embedded job runner: durable runs in the database, driven through the SDK's executor protocol. */
export class EmbeddedRunner {
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly registry: FunctionDef[];
  private readonly drive: DriveContext;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly now: Clock;
  private readonly log: RunnerLogger;
  private loop?: Promise<void>;
  private stopping = false;
  private wakeRequested = false;
  private wakeLoop?: () => void;
  private unsubscribe?: () => void;
  private heartbeat?: NodeJS.Timeout;
  /** Earliest upcoming cron fire time (null: no crons); undefined until first looked up. */
  private nextCronAt?: Date | null;

  constructor(private readonly opts: RunnerOptions) {
    this.registry = buildRegistry(opts.appId, opts.functions);
    this.now = opts.now ?? (() => new Date());
    this.log = opts.logger ?? { info: (m) => console.info(`[jobs] ${m}`), error: (m, e) => console.error(`[jobs] ${m}`, e ?? "") };
    this.drive = {
      db: opts.db,
      handler: opts.handler,
      signingKey: opts.signingKey,
      owner: this.owner,
      functions: new Map(this.registry.map((f) => [f.id, f])),
      backoff: opts.backoff ?? exponentialBackoff(),
      now: this.now,
      onFailed: (run, error) => this.emitFailure(run, error),
      maxRequestsPerClaim: 50,
    };
  }

  get functionIds(): string[] {
    return this.registry.map((f) => f.id);
  }

  async start(): Promise<void> {
    if (this.loop) return;
    if (this.opts.reclaimLeasesOnStart) {
      const n = await releaseForeignLeases(this.opts.db, this.owner);
      if (n) this.log.info(`resuming ${n} run(s) interrupted by a previous process`);
    }
    this.unsubscribe = onWake(() => this.wake());
    const leaseMs = this.opts.leaseMs ?? 30_000;
    this.heartbeat = setInterval(() => {
      const ids = [...this.inFlight.keys()];
      renewLeases(this.opts.db, this.owner, ids, new Date(this.now().getTime() + leaseMs)).catch((err) => this.log.error("lease renewal failed", err));
    }, Math.max(50, Math.floor(leaseMs / 3)));
    this.heartbeat.unref();
    this.loop = this.run();
  }

  /** Stops taking work, lets in-flight requests finish, and releases this runner's leases. */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.allSettled(this.inFlight.values());
    clearInterval(this.heartbeat);
    this.unsubscribe?.();
    await releaseLeases(this.opts.db, this.owner);
  }

  /** Look for work now (new events, finished drives). */
  wake(): void {
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
      const timer = setTimeout(finish, ms);
      this.wakeLoop = finish;
    });
  }

  /** One pass: fan out events, fire crons, claim due runs. Returns ms until the next known due time. */
  private async tick(): Promise<number> {
    const { db } = this.opts;
    const now = this.now();
    const events = await takeUnprocessedEvents(db, EVENT_BATCH);
    for (const event of events) {
      const fns = functionsForEvent(this.registry, event);
      await createRuns(
        db,
        fns.map((fn) => ({ id: newId("run"), functionId: fn.id, triggerKey: `event:${event.id}`, event, maxAttempts: fn.maxAttempts, nextAt: now })),
      );
      await resolveEventWaits(db, event, now);
    }
    await markEventsProcessed(db, events.map((e) => e.id), now);
    if (events.length === EVENT_BATCH) this.wakeRequested = true;

    // Cron schedules only change when they fire: skip the lookup until the known next fire time.
    if (this.nextCronAt === undefined || (this.nextCronAt !== null && this.nextCronAt <= now)) {
      this.nextCronAt = await fireDueCrons(db, this.registry, now);
    }
    const nextCron = this.nextCronAt;
    const free = this.opts.concurrency - this.inFlight.size;
    const claimed = await claimDueRuns(db, this.owner, free, now, this.opts.leaseMs ?? 30_000);
    for (const id of claimed) {
      const p = driveRun(this.drive, id)
        .catch((err) => this.log.error(`run ${id} failed to drive`, err))
        .finally(() => {
          this.inFlight.delete(id);
          this.wake();
        });
      this.inFlight.set(id, p);
    }
    if (claimed.length === free && free > 0) this.wakeRequested = true;
    const nextRun = this.inFlight.size < this.opts.concurrency ? await nextDueAt(db, now) : null;
    const next = [nextCron, nextRun].filter((d): d is Date => d !== null).map((d) => d.getTime() - now.getTime());
    return next.length ? Math.max(0, Math.min(...next)) : Number.POSITIVE_INFINITY;
  }

  private async emitFailure(run: JobRun, error: SerializedError): Promise<void> {
    this.log.error(`run ${run.id} of ${run.functionId} failed: ${String(error.message ?? "")}`);
    if (!hasListener(this.registry, FUNCTION_FAILED_EVENT)) return;
    await recordEvents(
      this.opts.db,
      [{ id: `failed-${run.id}`, name: FUNCTION_FAILED_EVENT, data: { function_id: run.functionId, run_id: run.id, error, event: run.event } }],
      this.now(),
    );
    this.wake();
  }
}
