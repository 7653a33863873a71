import { createHash } from "node:crypto";
import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getConfig } from "@/lib/config";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { acquirePgliteLock } from "./pglite-lock";
import { ThreadedPGlite } from "./pglite-thread/client";
import { withPreparedStatements } from "./prepared-pglite";

export type Db = PrismaClient;

interface DbHandle {
  prisma: PrismaClient;
  /** The embedded database, when that is what we run on. */
  pglite?: PGlite;
  /** The PostgreSQL pool Prisma uses, when on PostgreSQL. */
  pool?: pg.Pool;
}

// Route bundles, instrumentation and scripts can each load this module; the
// connection must still be one per process.
const globalForDb = globalThis as unknown as { __adloomDb?: DbHandle };

/** Opens the embedded database directory for this process (taking its lock), on its own thread. */
export function openPglite(dir: string): PGlite {
  acquirePgliteLock(dir);
  fs.mkdirSync(dir, { recursive: true });
  return new ThreadedPGlite(dir) as unknown as PGlite;
}

function connect(): DbHandle {
  const { database } = getConfig();
  if (database.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    return { prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), pool };
  }
  const pglite = withPreparedStatements(openPglite(database.dir));
  return { prisma: new PrismaClient({ adapter: new PrismaPGlite(pglite) }), pglite };
}

/** The process's Prisma client (PGlite in DATA_DIR, or PostgreSQL with DATABASE_URL). */
export function getDb(): PrismaClient {
  return (globalForDb.__adloomDb ??= connect()).prisma;
}

/** The embedded PGlite instance, when running on it. */
export function getPglite(): PGlite | undefined {
  getDb();
  return globalForDb.__adloomDb?.pglite;
}

/**
 * Rows of one parameterized query, straight through the driver Prisma itself uses
 * (same connection or pool). For the few hot paths where the ORM's per-query cost
 * dominates; read timestamps as epoch milliseconds, since the two drivers parse
 * `timestamp without time zone` differently. Pass constant texts: each is kept as a prepared
 * statement (on PostgreSQL, by name on every pooled connection).
 */
export async function queryRows<T>(text: string, params: unknown[]): Promise<T[]> {
  getDb();
  const handle = globalForDb.__adloomDb!;
  if (handle.pglite) return (await handle.pglite.query<T>(text, params)).rows;
  // Named: each pooled connection prepares the statement once (the texts here are a fixed few).
  return (await handle.pool!.query({ name: statementName(text), text, values: params })).rows as T[];
}

const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `adloom_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`));
  return name;
}

export async function closeDb(): Promise<void> {
  const handle = globalForDb.__adloomDb;
  globalForDb.__adloomDb = undefined;
  if (!handle) return;
  await handle.prisma.$disconnect();
  await handle.pglite?.close();
  await handle.pool?.end().catch(() => undefined);
}
