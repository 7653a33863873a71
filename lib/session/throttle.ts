import { createHmac } from "node:crypto";
import { queryRows } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { AppError } from "@/lib/errors";
import { getAuthSecret } from "./secret";

// Attempts per limit and key, in fixed 15-minute windows that start at a key's first attempt, counted in the database
// (attempt_counters): every process on it shares one budget, and a restart gives none back. The keys and limits of
// sign-in, password checks and second factors are in sign-in-throttle.ts; password-reset and confirmation emails and
// review-link passwords count here under their own limits.
export const WINDOW_MS = 15 * 60_000;

/** A limit: its name (the first half of a counter's identity) and how many attempts a window allows. */
export interface AttemptLimit {
  readonly name: string;
  readonly max: number;
}

/** One key counted under one limit. */
export interface Counter {
  readonly limit: AttemptLimit;
  readonly key: string;
}

export interface Attempt {
  /** Counted: the attempt may go ahead. */
  allowed: boolean;
  /** When refused: when the window that refused it ends (epoch ms). */
  retryAt: number;
}

/**
 * A key part that names a person (an email, a client address) as counters store it: an HMAC under the server's secret,
 * so the table (and its backups) do not list who tried to sign in from where (docs/decisions.md).
 */
export function keyDigest(text: string): string {
  return createHmac("sha256", getAuthSecret()).update(`attempt-counter\n${text}`).digest("base64url");
}

// One statement: when no counter is at its limit, each is counted, a counter whose window ended starting a new one.
// The conflict clause locks each row and checks its limit again against what other processes committed meanwhile, so
// attempts racing from several connections cannot all pass: at most `max` per window. Rows are locked in one order
// (name, key), so two statements over the same counters never wait on each other in a circle. The last row is a
// summary: when the window of a counter at its limit ends.
const COUNT_ATTEMPT = `
  WITH attempt AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[]) AS a(name, key, max)
  ), blocked AS (
    SELECT c."resetAt" FROM attempt_counters c JOIN attempt a ON c.name = a.name AND c.key = a.key
     WHERE c."resetAt" > $4::timestamp(3) AND c.count >= a.max
  ), counted AS (
    INSERT INTO attempt_counters AS c (name, key, count, "resetAt")
    SELECT a.name, a.key, 1, $5::timestamp(3) FROM attempt a WHERE NOT EXISTS (SELECT 1 FROM blocked) ORDER BY a.name, a.key
    ON CONFLICT (name, key) DO UPDATE SET
      count = CASE WHEN c."resetAt" <= $4::timestamp(3) THEN 1 ELSE c.count + 1 END,
      "resetAt" = CASE WHEN c."resetAt" <= $4::timestamp(3) THEN EXCLUDED."resetAt" ELSE c."resetAt" END
    WHERE c."resetAt" <= $4::timestamp(3) OR c.count < (SELECT a.max FROM attempt a WHERE a.name = c.name AND a.key = c.key)
    RETURNING c.name, c.key
  )
  SELECT name, key, NULL::float8 AS "blockedUntilMs" FROM counted
  UNION ALL
  SELECT NULL, NULL, (extract(epoch FROM max("resetAt")) * 1000)::float8 FROM blocked`;

// One statement: the counters to clear are deleted, the ones to refund give back one attempt of their current window.
const SETTLE = `
  WITH cleared AS (
    DELETE FROM attempt_counters c USING unnest($1::text[], $2::text[]) AS x(name, key) WHERE c.name = x.name AND c.key = x.key
  )
  UPDATE attempt_counters c SET count = c.count - 1
    FROM unnest($3::text[], $4::text[]) AS x(name, key)
   WHERE c.name = x.name AND c.key = x.key AND c."resetAt" > $5::timestamp(3) AND c.count > 0`;

const CLEAR_PREFIX = `DELETE FROM attempt_counters WHERE name = $1::text AND starts_with(key, $2::text)`;

// A batch of ended windows. Rows another statement holds are skipped (the next purge takes them): the purge never
// waits on a sign-in, so the two cannot deadlock.
const PURGE_BATCH = `
  WITH gone AS (
    DELETE FROM attempt_counters WHERE "resetAt" <= $1::timestamp(3) AND (name, key) IN (
      SELECT name, key FROM attempt_counters WHERE "resetAt" <= $1::timestamp(3) LIMIT $2::int FOR UPDATE SKIP LOCKED
    ) RETURNING 1
  )
  SELECT count(*)::int AS n FROM gone`;

const names = (counters: readonly Counter[]) => counters.map((c) => c.limit.name);
const keys = (counters: readonly Counter[]) => counters.map((c) => c.key);

/**
 * Starts an attempt under the limits of every counter given: refused (nothing counted) when one of them is at its
 * limit; otherwise it counts for all of them at once, as a failure until `settleAttempts` takes it back on success.
 * Attempts sent together are each counted before any is checked: counting after the slow password check let a burst
 * of parallel guesses past the limit.
 */
export async function countAttempt(counters: readonly Counter[], now = Date.now()): Promise<Attempt> {
  const rows = await queryRows<{ name: string | null; key: string | null; blockedUntilMs: number | null }>(COUNT_ATTEMPT, [
    names(counters),
    keys(counters),
    counters.map((c) => c.limit.max),
    sqlTime(new Date(now)),
    sqlTime(new Date(now + WINDOW_MS)),
  ]);
  const counted = rows.filter((r) => r.name !== null).map((r) => ({ name: r.name!, key: r.key! }));
  if (counted.length === counters.length) return { allowed: true, retryAt: now };
  // Refused. Rarely, another process took the last attempt of one counter after this statement's snapshot: the others
  // were counted and are given back.
  const partly = counters.filter((c) => counted.some((r) => r.name === c.limit.name && r.key === c.key));
  if (partly.length) await settleAttempts({ refund: partly }, now);
  return { allowed: false, retryAt: Number(rows.find((r) => r.name === null)?.blockedUntilMs ?? now + WINDOW_MS) };
}

/** `countAttempt` for one counter: whether the attempt may go ahead. */
export async function beginAttempt(limit: AttemptLimit, key: string, now = Date.now()): Promise<boolean> {
  return (await countAttempt([{ limit, key }], now)).allowed;
}

/**
 * After a success, in one statement: the `clear` counters forget every failure of their window, the `refund` ones
 * only the attempt that succeeded (for keys many people share, where one success must not wipe out someone else's).
 */
export async function settleAttempts(settle: { clear?: readonly Counter[]; refund?: readonly Counter[] }, now = Date.now()): Promise<void> {
  const { clear = [], refund = [] } = settle;
  await queryRows(SETTLE, [names(clear), keys(clear), names(refund), keys(refund), sqlTime(new Date(now))]);
}

/** Forgets the failures of one counter (a success). */
export async function clearFailures(limit: AttemptLimit, key: string): Promise<void> {
  await settleAttempts({ clear: [{ limit, key }] });
}

/** Forgets the failures of every key of the limit starting with `prefix`. */
export async function clearFailuresWithPrefix(limit: AttemptLimit, prefix: string): Promise<void> {
  await queryRows(CLEAR_PREFIX, [limit.name, prefix]);
}

/** The 429 `rate_limited` answer for a refused attempt: the error envelope with Retry-After (the window's end). */
export function tooManyAttempts(retryAt: number, what: string, now = Date.now()): AppError {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError("rate_limited", `Too many wrong ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
    "Retry-After": String(seconds),
  });
}

/** Deletes the counters whose window has ended, `batch` rows per statement; how many. Run by the daily purge job. */
export async function purgeEndedAttemptCounters(now = new Date(), batch = 1000): Promise<number> {
  let purged = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(PURGE_BATCH, [sqlTime(now), batch]);
    purged += row!.n;
    if (row!.n < batch) return purged;
  }
}
