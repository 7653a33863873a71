import { startAdminSocket } from "@/lib/admin/socket";
import { getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";

/**
 * Opens the database (taking the embedded database's lock), serves the operator
 * CLI's socket, and starts the embedded job runner unless Inngest runs the jobs.
 */
export async function startServerServices(): Promise<void> {
  const config = getConfig();
  await getDb().$queryRaw`SELECT 1`;
  await startAdminSocket(config.dataDir);
  if (config.jobs.mode === "embedded") {
    const [{ startEmbeddedRunner }, { appJobs }] = await Promise.all([import("@/lib/jobs/embedded"), import("@/inngest/serve")]);
    await startEmbeddedRunner(appJobs);
  }
  console.log(
    `[adloom] ready: database ${config.database.kind}, jobs ${config.jobs.mode}, storage ${config.storage.driver}, data in ${config.dataDir}`,
  );
}
