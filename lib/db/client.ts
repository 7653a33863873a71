import { createHash } from "node:crypto";
import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { Config } from "@/lib/config";
import { defineService } from "@/lib/services";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { acquirePgliteLock, ThreadedPGlite, withPreparedStatements } from "@adloom/pglite-driver";
import { refuseInterruptedRestore } from "./interrupted-restore";

export type Db = PrismaClient;

interface DbHandle {
  prisma: PrismaClient;
  /** The embedded database, when that is what we run on. */
  pglite?: PGlite;
  /** The PostgreSQL pool Prisma uses, when on PostgreSQL. */
  pool?: pg.Pool;
}

/**
 * Opens the embedded database directory for this process (taking its lock), on its own thread. PGlite writes its
 * files world-readable and -writable (0666, whatever the umask), so the directory is the owner's only (0700, as
 * PostgreSQL's own): set on every open, which also closes an installation made before. A DATA_DIR whose backup restore
 * was killed has no database yet, or half of one: it is not opened (nor created) until the restore is run again.
 */
export function openPglite(dir: string): PGlite {
  acquirePgliteLock(dir);
  refuseInterruptedRestore(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  return new ThreadedPGlite(dir) as unknown as PGlite;
}

/**
 * Prisma's defaults (2 s to start an interactive transaction, 5 s to finish it) failed short transactions of four
 * statements with a 500 on a loaded 2-core machine, where the embedded database's one connection and thread queue
 * every query: a slow transaction is still rolled back whole, only later (docs/decisions.md).
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

function connect(database: Config["database"]): DbHandle {
  if (database.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    return { prisma: new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS }), pool };
  }
  const pglite = withPreparedStatements(openPglite(database.dir));
  return { prisma: new PrismaClient({ adapter: new PrismaPGlite(pglite), transactionOptions: TRANSACTION_OPTIONS }), pglite };
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
 * How often a loop that looks for work other processes left polls the embedded database (the job runner's full pass,
 * the webhook first attempts; on PostgreSQL they poll every second or faster). Only this process writes that database:
 * it signals its own events, runs and reschedules in-process, and a start releases the leases a crash left, so the
 * poll is a safety net. Every second it was half of an idle server's CPU (docs/testing.md, "What an idle server costs").
 */
export const EMBEDDED_DATABASE_POLL_MS = 10_000;

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

/**
 * Runs statements through some connection: the process's own (`directSql`), an open transaction
 * (`inTransaction`), or a Prisma interactive transaction (`sqlOf(tx)`). Infrastructure that writes
 * into the caller's transaction (the job outbox) takes one of these.
 */
export interface SqlClient {
  queryRows<T>(text: string, params: unknown[]): Promise<T[]>;
}

/** Statements on the process's connection, each in its own implicit transaction. */
export const directSql: SqlClient = { queryRows };

/** A Prisma client or interactive transaction as a SqlClient. */
export function sqlOf(tx: { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> }): SqlClient {
  return { queryRows: <T>(text: string, params: unknown[]) => tx.$queryRawUnsafe<T[]>(text, ...params) };
}

/**
 * Runs `fn` in one transaction straight through the driver (no ORM), for hot paths that must
 * store several rows together or not at all: committed when `fn` resolves, rolled back when it throws.
 */
export async function inTransaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
  const handle = database();
  if (handle.pglite)
    return handle.pglite.transaction((tx) => fn({ queryRows: async <R>(text: string, params: unknown[]) => (await tx.query<R>(text, params)).rows }));
  const client = await handle.pool!.connect();
  try {
    await client.query("BEGIN");
    const result = await fn({
      queryRows: async <R>(text: string, params: unknown[]) => (await client.query({ name: statementName(text), text, values: params })).rows as R[],
    });
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `adloom_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`));
  return name;
}
