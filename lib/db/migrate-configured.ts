import type { Config } from "@/lib/config";
import { openPglite } from "./client";
import { applyMigrations } from "./migrate";

/** Applies pending migrations to the database the configuration names; returns their names. */
export async function migrateConfiguredDatabase(config: Config): Promise<string[]> {
  if (config.database.kind === "postgres") return applyMigrations(config.database.url);
  const pglite = openPglite(config.database.dir);
  try {
    return await applyMigrations(pglite);
  } finally {
    await pglite.close();
  }
}
