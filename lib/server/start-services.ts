import { startAdminSocket } from "@/lib/admin/socket";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { describeMailTransport } from "@/lib/mail/send-mail";

/**
 * Opens the database (taking the embedded database's lock), serves the operator
 * CLI's socket, and starts the embedded job runner unless Inngest runs the jobs.
 */
export async function startServerServices(): Promise<void> {
  const config = getConfig();
  await getDb().$queryRaw`SELECT 1`;
  await startAdminSocket(config.dataDir);
  if (config.jobs.mode === "embedded") {
    const { startEmbeddedRunner } = await import("@/lib/jobs/embedded");
    await startEmbeddedRunner();
  }
  console.log(
    `[adloom] ready: database ${config.database.kind}, jobs ${config.jobs.mode}, storage ${config.storage.driver}, data in ${config.dataDir}`,
  );
  console.log(`[adloom] ${describeMailTransport()}`);
}
