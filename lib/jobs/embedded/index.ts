import { EmbeddedRunner as JobRunner, exponentialBackoff, type RunnerLogger, type RunnerOptions as JobRunnerOptions } from "@adloom/job-runner";
import type { Config } from "@/lib/config";
import { getServices } from "@/lib/services";
import { EMBEDDED_DATABASE_POLL_MS, getDb, type Db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { recordJobRunEnded } from "@/lib/observability/metrics";
import { prismaJobStore } from "../embedded-store";
import { getEmbeddedSigningKey } from "../signing-key";
import { jobSignals } from "./signals";

export { queueDepth } from "../embedded-store";

/** The runner's options with the app's adapters filled in: its database, ids, log and metrics, the process's signals. */
export type RunnerOptions = Omit<JobRunnerOptions, "store" | "signals" | "newId" | "logger" | "onRunEnded"> & { db: Db; logger?: RunnerLogger };

const appLogger: RunnerLogger = { info: (m) => log.info(m, { component: "jobs" }), error: (m, e) => log.error(m, { component: "jobs", err: e }) };

/** @adloom/job-runner's runner over the app's job tables (lib/jobs/embedded-store). */
export class EmbeddedRunner extends JobRunner {
  constructor({ db, logger, ...options }: RunnerOptions) {
    super({ ...options, store: prismaJobStore(db), signals: jobSignals, newId, logger: logger ?? appLogger, onRunEnded: recordJobRunEnded });
  }
}

// One runner per service registry (so per process), whichever bundle (instrumentation, a route, a script) starts it.
const RUNNER = "jobs.embedded-runner";

/** What the runner runs: the app's functions and the serve handler they answer through (inngest/serve.ts). */
export type AppJobs = Pick<RunnerOptions, "appId" | "functions" | "handler">;

async function startRunner(config: Config, app: AppJobs): Promise<EmbeddedRunner> {
  const runner = new EmbeddedRunner({
    db: getDb(),
    ...app,
    signingKey: getEmbeddedSigningKey(config.dataDir),
    concurrency: config.jobs.concurrency,
    backoff: exponentialBackoff(config.jobs.stepRetryBaseMs),
    reclaimLeasesOnStart: config.database.kind === "pglite",
    ...(config.database.kind === "pglite" ? { pollIntervalMs: EMBEDDED_DATABASE_POLL_MS } : {}),
  });
  await runner.start();
  return runner;
}

async function stopRunner(pending: Promise<EmbeddedRunner>): Promise<void> {
  const runner = await pending.catch(() => undefined);
  await runner?.stop();
}

/** Starts the process's embedded job runner over the app's functions. Idempotent. */
export async function startEmbeddedRunner(app: AppJobs): Promise<void> {
  const services = getServices();
  const pending = services.use(RUNNER, ({ config }) => startRunner(config, app), stopRunner);
  try {
    await pending;
  } catch (err) {
    // A failed start is forgotten, so the next call tries again.
    if (services.peek(RUNNER) === pending) await services.release(RUNNER);
    throw err;
  }
}

/** Stops the process's runner, if one is running: steps in flight finish, then every run is handed back. */
export async function stopEmbeddedRunner(): Promise<void> {
  await stopEmbeddedRunnerWithin(Number.POSITIVE_INFINITY);
}

/** As stopEmbeddedRunner, but waits at most `graceMs` for steps in flight before releasing their runs anyway. */
export async function stopEmbeddedRunnerWithin(graceMs: number): Promise<void> {
  const services = getServices();
  const pending = services.peek<Promise<EmbeddedRunner>>(RUNNER);
  if (!pending) return;
  const runner = await pending.catch(() => undefined);
  await runner?.stop(graceMs);
  await services.release(RUNNER);
}

/** Whether this process's embedded runner has started (readiness). */
export async function embeddedRunnerStarted(): Promise<boolean> {
  const pending = getServices().peek<Promise<EmbeddedRunner>>(RUNNER);
  if (!pending) return false;
  return pending.then(
    () => true,
    () => false,
  );
}
