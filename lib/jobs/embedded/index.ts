import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { getEmbeddedSigningKey } from "../signing-key";
import { EmbeddedRunner, type RunnerOptions } from "./runner";

export { EmbeddedRunner, type RunnerOptions } from "./runner";

// One runner per process, whichever bundle (instrumentation, a route, a script) starts it.
const g = globalThis as unknown as { __adloomEmbeddedRunner?: Promise<EmbeddedRunner> };

/** What the runner runs: the app's functions and the serve handler they answer through (inngest/serve.ts). */
export type AppJobs = Pick<RunnerOptions, "appId" | "functions" | "handler">;

/** Starts the process's embedded job runner over the app's functions. Idempotent. */
export async function startEmbeddedRunner(app: AppJobs): Promise<void> {
  g.__adloomEmbeddedRunner ??= (async () => {
    const config = getConfig();
    const runner = new EmbeddedRunner({
      db: getDb(),
      ...app,
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

/** Stops the process's runner (waits for in-flight steps) if one is running. */
export async function stopEmbeddedRunner(): Promise<void> {
  const pending = g.__adloomEmbeddedRunner;
  g.__adloomEmbeddedRunner = undefined;
  if (!pending) return;
  const runner = await pending.catch(() => undefined);
  await runner?.stop();
}
