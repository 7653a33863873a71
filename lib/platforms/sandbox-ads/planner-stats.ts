import { getDb } from "@/lib/db/client";

/**
 * Refreshes the planner statistics of the sandbox's own tables (the embedded database runs no
 * autovacuum). Domain code asks for this through lib/platforms (refreshPlatformPlannerStats) and
 * never names the sandbox's tables itself.
 */
export async function analyzeSandboxTables(): Promise<void> {
  await getDb().$executeRawUnsafe("ANALYZE sandbox_ads, sandbox_ad_days");
}
