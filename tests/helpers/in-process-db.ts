import { freshDatabaseUrl } from "./fresh-database";
import { migratedDataDir, tempDataDir } from "./server";

/**
 * Points this test process at a fresh, migrated database of the kind the run
 * tests (TEST_DB): a PGlite directory, or a new database on the run's PostgreSQL,
 * with a new service registry over it (dispose of it with disposeServices from lib/services).
 */
export async function useFreshDatabase(label: string): Promise<void> {
  const databaseUrl = await freshDatabaseUrl(label);
  process.env.DATA_DIR = databaseUrl ? tempDataDir(label) : await migratedDataDir(label);
  if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
  else delete process.env.DATABASE_URL;
  const { createServices, disposeServices } = await import("@/lib/services");
  await disposeServices();
  createServices();
  const { ensureMigrated } = await import("@/lib/db/migrate-configured");
  await ensureMigrated();
}
