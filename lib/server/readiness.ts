import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { serverServicesStarted } from "./start-services";
import { isDraining } from "./shutdown";

export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; runner: boolean; accepting: boolean };
}

/** Migration folders of this build (the same folder the start applies). */
function expectedMigrations(): string[] {
  const dir = path.resolve("prisma/migrations");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}

/**
 * Whether this instance should get traffic: the database answers, every migration of this build is
 * applied, the services (operator socket, job runner) have started, and no shutdown has begun.
 */
export async function checkReadiness(): Promise<Readiness> {
  const checks = { database: false, migrations: false, runner: serverServicesStarted(), accepting: !isDraining() };
  try {
    const rows = await getDb().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    checks.database = true;
    const applied = new Set(rows.map((r) => r.migration_name));
    checks.migrations = expectedMigrations().every((name) => applied.has(name));
  } catch {
    // database unreachable (or never migrated): both stay false
  }
  if (getConfig().jobs.mode === "embedded" && checks.runner) {
    const { embeddedRunnerStarted } = await import("@/lib/jobs/embedded");
    checks.runner = await embeddedRunnerStarted();
  }
  return { ready: Object.values(checks).every(Boolean), checks };
}
