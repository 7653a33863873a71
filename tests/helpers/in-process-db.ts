import { inject } from "vitest";
import pg from "pg";
import { tempDataDir } from "./server";

/**
 * Points this test process at a fresh, migrated database of the kind the run
 * tests (TEST_DB): a PGlite directory, or a new database on the run's PostgreSQL,
 * with a new service registry over it (dispose of it with disposeServices from lib/services).
 */
export async function useFreshDatabase(label: string): Promise<void> {
  process.env.DATA_DIR = tempDataDir(label);
  if (inject("testDb") === "postgres") {
    const admin = new pg.Client({ connectionString: inject("postgresUrl") });
    await admin.connect();
    const name = `${label}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(inject("postgresUrl"));
    url.pathname = `/${name}`;
    process.env.DATABASE_URL = url.toString();
  } else {
    delete process.env.DATABASE_URL;
  }
  const { createServices, disposeServices } = await import("@/lib/services");
  await disposeServices();
  createServices();
  const { ensureMigrated } = await import("@/lib/db/migrate-configured");
  await ensureMigrated();
}
