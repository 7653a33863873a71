import { getDb } from "@/lib/db/client";
import { defineService } from "@/lib/services";
import { applySandboxMigrations } from "./migrate";

/**
 * The sandbox's own storage: its tables live in the PostgreSQL schema `sandbox` (./migrations), are
 * read and written with SQL here, never through the app's Prisma models, and are named nowhere
 * outside this folder. Timestamps are `timestamp(3)` in UTC: pass them as ISO strings cast with
 * `::timestamp(3)` (see lib/db/sql-time.ts); they come back as Dates.
 */
export const TABLE = {
  accounts: "sandbox.accounts",
  campaigns: "sandbox.campaigns",
  adSets: "sandbox.ad_sets",
  ads: "sandbox.ads",
  adDays: "sandbox.ad_days",
  comments: "sandbox.comments",
  leads: "sandbox.leads",
  mediaSessions: "sandbox.media_sessions",
} as const;

/** What runs the sandbox's SQL: the process's connection or an open transaction. */
export interface SandboxSql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** The schema is brought up to date once per process (per service registry), before the first query. */
const schema = defineService("platforms.sandbox-schema", () => ({ ready: undefined as Promise<string[]> | undefined }));

/** Applies the sandbox's pending migrations (once per process); answers what this call applied. */
export function ensureSandboxSchema(): Promise<string[]> {
  const state = schema();
  state.ready ??= applySandboxMigrations().catch((err: unknown) => {
    state.ready = undefined; // a later call tries again
    throw err;
  });
  return state.ready;
}

/** Rows of one statement on the sandbox's tables. */
export async function rows<T>(text: string, ...params: unknown[]): Promise<T[]> {
  await ensureSandboxSchema();
  return getDb().$queryRawUnsafe<T[]>(text, ...params);
}

/** The first row of one statement, or null. */
export async function row<T>(text: string, ...params: unknown[]): Promise<T | null> {
  return (await rows<T>(text, ...params))[0] ?? null;
}

/** Runs one statement; answers the number of rows it changed. */
export async function execute(text: string, ...params: unknown[]): Promise<number> {
  await ensureSandboxSchema();
  return getDb().$executeRawUnsafe(text, ...params);
}

/** Runs `fn` in one transaction on the sandbox's tables. */
export async function inSandboxTransaction<T>(fn: (tx: SandboxSql) => Promise<T>, options?: { timeout?: number; maxWait?: number }): Promise<T> {
  await ensureSandboxSchema();
  return getDb().$transaction((tx) => fn(tx), options);
}

/** A Date (or ISO string) as a `::timestamp(3)` parameter. */
export const ts = (d: Date | string | number | null | undefined): string | null => (d === null || d === undefined ? null : new Date(d).toISOString());

/**
 * Sets the given columns (those not undefined) of the row with this id and answers it with `columns`;
 * null when there is no such row. `casts` names a column's SQL type (`::jsonb`, `::timestamp(3)`).
 */
export async function updateById<T>(
  table: string,
  columns: string,
  id: string,
  patch: Record<string, unknown>,
  casts: Record<string, string> = {},
): Promise<T | null> {
  const set = Object.entries(patch).filter(([, value]) => value !== undefined);
  if (set.length === 0) return row<T>(`SELECT ${columns} FROM ${table} WHERE id = $1`, id);
  const assignments = set.map(([column], i) => `"${column}" = $${i + 2}${casts[column] ? `::${casts[column]}` : ""}`);
  return row<T>(`UPDATE ${table} SET ${assignments.join(", ")} WHERE id = $1 RETURNING ${columns}`, id, ...set.map(([, value]) => value));
}

/** The process's connection as a SandboxSql, once the schema is ready (for helpers that also run inside a transaction). */
export async function sandboxSql(): Promise<SandboxSql> {
  await ensureSandboxSchema();
  return getDb();
}
