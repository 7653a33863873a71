import { startAdminSocket } from "@/lib/admin/socket";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { setQueueDepthSource } from "@/lib/observability/metrics";

interface ServicesState {
  started: boolean;
}
const g = globalThis as unknown as { __adloomServices?: ServicesState };
const state = (g.__adloomServices ??= { started: false });

/**
 * Opens the database (taking the embedded database's lock), serves the operator
 * CLI's socket, and starts the embedded job runner unless Inngest runs the jobs.
 */
export async function startServerServices(): Promise<void> {
  const config = getConfig();
  await getDb().$queryRaw`SELECT 1`;
  await startAdminSocket(config.dataDir);
  if (config.jobs.mode === "embedded") {
    const [{ startEmbeddedRunner }, { queueDepth }] = await Promise.all([import("@/lib/jobs/embedded"), import("@/lib/jobs/embedded/run-store")]);
    await startEmbeddedRunner();
    setQueueDepthSource(() => queueDepth(getDb(), new Date()));
  }
  state.started = true;
  log.info("ready", { database: config.database.kind, jobs: config.jobs.mode, storage: config.storage.driver, dataDir: config.dataDir });
}

/** Whether startServerServices has finished in this process (readiness). */
export function serverServicesStarted(): boolean {
  return state.started;
}
