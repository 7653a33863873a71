// npm run db:migrate: applies prisma/migrations to the database the server uses
// (PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL). Runs before every `npm start`.
import type { PGlite } from "@electric-sql/pglite";
import { getConfig } from "@/lib/services";
import { openPglite } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import { DatabaseBusyError } from "@adloom/pglite-driver";

interface Target {
  target: PGlite | string;
  label: string;
  close(): Promise<void>;
}

function openTarget(): Target {
  const { database } = getConfig();
  if (database.kind === "postgres") {
    return { target: database.url, label: "PostgreSQL (DATABASE_URL)", close: async () => {} };
  }
  const db = openPglite(database.dir);
  return { target: db, label: `PGlite (${database.dir})`, close: () => db.close() };
}

async function main(): Promise<number> {
  let target: Target;
  try {
    target = openTarget();
  } catch (error) {
    if (!(error instanceof DatabaseBusyError)) throw error;
    console.error(
      `The running server (pid ${error.ownerPid}) has the embedded database open and applied the migrations when it started; restart it to apply new ones.`,
    );
    return 1;
  }
  try {
    const applied = await applyMigrations(target.target);
    console.log(
      applied.length
        ? `Applied ${applied.length} migration(s) to ${target.label}: ${applied.join(", ")}`
        : `${target.label} is up to date: no migrations to apply.`,
    );
    return 0;
  } catch (error) {
    console.error(`Migration failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await target.close();
  }
}

// The schema engine leaves a 10 s timer pending after its work; do not wait for it.
process.exit(await main());
