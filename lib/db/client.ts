import { createHash } from "node:crypto";
import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { Config } from "@/lib/config";
import { defineService } from "@/lib/services";
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

/** Opens the embedded database directory for this process (taking its lock), on its own thread. */
export function openPglite(dir: string): PGlite {
  acquirePgliteLock(dir);
  fs.mkdirSync(dir, { recursive: true });
  return new ThreadedPGlite(dir) as unknown as PGlite;
}

function connect(database: Config["database"]): DbHandle {
  if (database.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    return { prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), pool };
  }
  const pglite = withPreparedStatements(openPglite(database.dir));
  return { prisma: new PrismaClient({ adapter: new PrismaPGlite(pglite) }), pglite };
}

async function disconnect(handle: DbHandle): Promise<void> {
  await handle.prisma.$disconnect();
  await handle.pglite?.close();
  await handle.pool?.end().catch(() => undefined);
}

/** The process's database connection (one per service registry, see lib/services.ts). */
const database = defineService("db", ({ config }) => connect(config.database), disconnect);

/** The process's Prisma client (PGlite in DATA_DIR, or PostgreSQL with DATABASE_URL). */
export function getDb(): PrismaClient {
  return database().prisma;
}

/** The embedded PGlite instance, when running on it. */
export function getPglite(): PGlite | undefined {
  return database().pglite;
}

/**
 * Rows of one parameterized query, straight through the driver Prisma itself uses
 * (same connection or pool). For the few hot paths where the ORM's per-query cost
 * dominates; read timestamps as epoch milliseconds, since the two drivers parse
 * `timestamp without time zone` differently. Pass constant texts: each is kept as a prepared
 * statement (on PostgreSQL, by name on every pooled connection).
 */
export async function queryRows<T>(text: string, params: unknown[]): Promise<T[]> {
  const handle = database();
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
