import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { getEmbeddedSigningKey } from "../signing-key";
import { EmbeddedRunner } from "./runner";

export { EmbeddedRunner, type RunnerOptions } from "./runner";

// One runner per process, whichever bundle (instrumentation, a route, a script) starts it.
const g = globalThis as unknown as { __adloomEmbeddedRunner?: Promise<EmbeddedRunner> };

/** Starts the process's embedded job runner over the app's functions. Idempotent. */
export async function startEmbeddedRunner(): Promise<void> {
  g.__adloomEmbeddedRunner ??= (async () => {
    const config = getConfig();
    const [{ APP_ID }, { functions }, { postToInngestHandler }] = await Promise.all([
      import("@/inngest/client"),
      import("@/inngest/functions"),
      import("@/lib/jobs/serve-handler"),
    ]);
    const runner = new EmbeddedRunner({
      db: getDb(),
      appId: APP_ID,
      functions,
      handler: postToInngestHandler,
      signingKey: getEmbeddedSigningKey(config.dataDir),
      concurrency: config.jobs.concurrency,
      reclaimLeasesOnStart: config.database.kind === "pglite",
    });
    await runner.start();
    return runner;
  })().catch((err: unknown) => {
    g.__adloomEmbeddedRunner = undefined;
    throw err;
  });
  await g.__adloomEmbeddedRunner;
}

/** Stops the process's runner, if one is running: steps in flight finish, then every run is handed back. */
export async function stopEmbeddedRunner(): Promise<void> {
  await stopEmbeddedRunnerWithin(Number.POSITIVE_INFINITY);
}

/** As stopEmbeddedRunner, but waits at most `graceMs` for steps in flight before releasing their runs anyway. */
export async function stopEmbeddedRunnerWithin(graceMs: number): Promise<void> {
  const pending = g.__adloomEmbeddedRunner;
  g.__adloomEmbeddedRunner = undefined;
  if (!pending) return;
  const runner = await pending.catch(() => undefined);
  await runner?.stop(graceMs);
}

/** Whether this process's embedded runner has started (readiness). */
export async function embeddedRunnerStarted(): Promise<boolean> {
  const pending = g.__adloomEmbeddedRunner;
  if (!pending) return false;
  return pending.then(() => true, () => false);
}
