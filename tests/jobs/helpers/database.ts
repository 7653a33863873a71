import { getPglite } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";

/** Brings the process's (fresh, embedded) database to the current migrations. */
export async function migrateTestDatabase(): Promise<void> {
  const pglite = getPglite();
  if (!pglite) throw new Error("jobs tests expect the embedded database");
  await applyMigrations(pglite);
}
