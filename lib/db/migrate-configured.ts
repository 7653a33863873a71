import type { Config } from "@/lib/config";
import { getConfig } from "@/lib/services";
import { getPglite, openPglite } from "./client";
import { applyMigrations } from "./migrate";

/** Applies pending migrations to the database the configuration names (opening and closing it); returns their names. */
export async function migrateConfiguredDatabase(config: Config): Promise<string[]> {
  if (config.database.kind === "postgres") return applyMigrations(config.database.url);
  const pglite = openPglite(config.database.dir);
  try {
    return await applyMigrations(pglite);
  } finally {
    await pglite.close();
  }
}

/** Applies pending migrations through this process's own connection (CLI, tests). */
export async function ensureMigrated(): Promise<string[]> {
  const config = getConfig();
  if (config.database.kind === "postgres") return applyMigrations(config.database.url);
  return applyMigrations(getPglite()!);
}
