import { startAdminSocket } from "@/lib/admin/socket";
import { configurationWarnings } from "@/lib/config";
import { defineService, getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { setQueueDepthSource } from "@/lib/observability/metrics";

/** Whether the server's services finished starting in this process (readiness). */
const startState = defineService("server.start-state", () => ({ started: false }));
import { describeMailTransport } from "@/lib/mail/send-mail";

/**
 * Opens the database (taking the embedded database's lock), serves the operator
 * CLI's socket, starts the embedded job runner unless Inngest runs the jobs, and starts sending
 * webhook first attempts.
 */
export async function startServerServices(): Promise<void> {
  const config = getConfig();
  await getDb().$queryRaw`SELECT 1`;
  // libvips' operation cache (up to 50 MB of decoded pixels by default) only pays off when the same
  // file is decoded twice with the same options; media files are written once and decoded once per
  // rendition, so it only held memory (measured with bench:import, docs/performance.md).
  const { default: sharp } = await import("sharp");
  sharp.cache(false);
  await startAdminSocket(config.dataDir);
  if (config.jobs.mode === "embedded") {
    const [{ startEmbeddedRunner, queueDepth }, { appJobs }] = await Promise.all([import("@/lib/jobs/embedded"), import("@/inngest/serve")]);
    await startEmbeddedRunner(appJobs);
    setQueueDepthSource(() => queueDepth(getDb(), new Date()));
  }
  // Webhook first attempts are sent by the server itself, whichever runs the jobs (lib/webhooks/first-attempts.ts).
  const { startFirstAttempts } = await import("@/lib/webhooks/first-attempts");
  await startFirstAttempts();
  log.info("mail", { transport: describeMailTransport() });
  for (const warning of configurationWarnings(config)) log.warn(warning, { component: "config" });
  startState().started = true;
  log.info("ready", { database: config.database.kind, jobs: config.jobs.mode, storage: config.storage.driver, dataDir: config.dataDir });
}

/** Whether startServerServices has finished in this process (readiness). */
export function serverServicesStarted(): boolean {
  return startState().started;
}
