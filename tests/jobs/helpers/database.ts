import { ensureMigrated } from "@/lib/db/migrate-configured";

/** Brings the process's fresh database (PGlite or PostgreSQL, per TEST_DB) to the current migrations. */
export async function migrateTestDatabase(): Promise<void> {
  await ensureMigrated();
}
