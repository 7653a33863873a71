import { execute, TABLE } from "./store";

/**
 * Refreshes the planner statistics of the sandbox's busiest tables (the embedded database runs no
 * autovacuum). Reached through lib/platforms (refreshPlatformPlannerStats): nothing outside this
 * folder names the sandbox's tables.
 */
export async function analyzeSandboxTables(): Promise<void> {
  await execute(`ANALYZE ${TABLE.ads}, ${TABLE.adDays}`);
}
