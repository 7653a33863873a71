import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getDb } from "@/lib/db/client";

/**
 * The sandbox's own migrations: `NNNN_name.sql` files in this folder's `migrations/`, applied in name
 * order, each recorded in `sandbox.migrations` (name, SHA-256 of the file). They run in one transaction
 * under an advisory lock, so two processes starting at once apply each file once. The app's Prisma
 * schema and `prisma/migrations` know nothing of the sandbox's tables (schema `sandbox`, which Prisma
 * does not read).
 */
export const SANDBOX_MIGRATIONS_DIR = "lib/platforms/sandbox/migrations";

/** pg_advisory_xact_lock key: "sandbox." as a number, held for the migrating transaction. */
const LOCK_KEY = 7_300_617_102;

export interface SandboxMigration {
  name: string;
  sql: string;
  checksum: string;
}

/** The migration files, oldest first (relative to the working directory, like prisma/migrations). */
export function sandboxMigrations(dir = SANDBOX_MIGRATIONS_DIR): SandboxMigration[] {
  // Read at run time from the working directory (as prisma/migrations is), not traced into the bundle.
  const base = path.resolve(/* turbopackIgnore: true */ process.cwd(), dir);
  return fs
    .readdirSync(/* turbopackIgnore: true */ base)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const sql = fs.readFileSync(/* turbopackIgnore: true */ path.join(base, file), "utf8");
      return { name: file.replace(/\.sql$/, ""), sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Splits a migration into statements at the `;` that ends a line, keeping `$$ … $$` bodies (DO
 * blocks) whole: every statement then runs on its own through the ordinary query path, on PGlite
 * and PostgreSQL alike.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of sql.split("\n")) {
    if (!inBody && /^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join("\n").trim());
      current = [];
    }
  }
  const rest = current.join("\n").trim();
  if (rest) statements.push(rest);
  return statements.filter((s) => s.length > 0);
}

/** Applies the sandbox's pending migrations; answers their names. Refuses when an applied file was edited. */
export async function applySandboxMigrations(migrations = sandboxMigrations()): Promise<string[]> {
  return getDb().$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
      await tx.$executeRawUnsafe(`CREATE SCHEMA IF NOT EXISTS sandbox`);
      await tx.$executeRawUnsafe(
        `CREATE TABLE IF NOT EXISTS sandbox.migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, "appliedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
      );
      const applied = new Map(
        (await tx.$queryRawUnsafe<{ name: string; checksum: string }[]>(`SELECT name, checksum FROM sandbox.migrations`)).map((r) => [r.name, r.checksum]),
      );
      const done: string[] = [];
      for (const migration of migrations) {
        const checksum = applied.get(migration.name);
        if (checksum !== undefined) {
          if (checksum !== migration.checksum) throw new Error(`the sandbox migration ${migration.name} was edited after it was applied`);
          continue;
        }
        for (const statement of splitStatements(migration.sql)) await tx.$executeRawUnsafe(statement);
        await tx.$executeRawUnsafe(`INSERT INTO sandbox.migrations (name, checksum) VALUES ($1, $2)`, migration.name, migration.checksum);
        done.push(migration.name);
      }
      return done;
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}
