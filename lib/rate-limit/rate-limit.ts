import { defineService, getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** When the current window ends. */
  resetAt: Date;
}

interface RateLimitStore {
  /** Counts one request in the bucket's current window and returns the window's count. */
  increment(bucket: string, windowStart: Date): Promise<number>;
}

const WINDOW_MS = 60_000;

/**
 * The embedded database lives in exactly one process, so counting in memory is
 * exact there. Several instances sharing PostgreSQL count in the database.
 */
class MemoryStore implements RateLimitStore {
  private windows = new Map<string, { start: number; count: number }>();

  async increment(bucket: string, windowStart: Date): Promise<number> {
    const start = windowStart.getTime();
    const current = this.windows.get(bucket);
    if (!current || current.start !== start) {
      if (this.windows.size > 10_000) this.evictBefore(start);
      this.windows.set(bucket, { start, count: 1 });
      return 1;
    }
    return ++current.count;
  }

  private evictBefore(start: number) {
    for (const [k, v] of this.windows) if (v.start < start) this.windows.delete(k);
  }
}

class PostgresStore implements RateLimitStore {
  async increment(bucket: string, windowStart: Date): Promise<number> {
    const db = getDb();
    const rows = await db.$queryRaw<{ count: number }[]>`
      INSERT INTO rate_limit_windows (bucket, "windowStart", count) VALUES (${bucket}, ${windowStart}, 1)
      ON CONFLICT (bucket, "windowStart") DO UPDATE SET count = rate_limit_windows.count + 1
      RETURNING count`;
    if (Math.random() < 0.01) {
      db.$executeRaw`DELETE FROM rate_limit_windows WHERE "windowStart" < ${new Date(windowStart.getTime() - 5 * WINDOW_MS)}`.catch(() => {});
    }
    return Number(rows[0]!.count);
  }
}

const store = defineService("http.rate-limit", ({ config }): RateLimitStore => (config.database.kind === "postgres" ? new PostgresStore() : new MemoryStore()));

/** Counts a request against `bucket` (e.g. an API key id); throws 429 `rate_limited` past the limit. */
export async function enforceRateLimit(bucket: string, limit = getConfig().rateLimitPerMinute): Promise<RateLimitResult> {
  const now = Date.now();
  const windowStart = new Date(now - (now % WINDOW_MS));
  const resetAt = new Date(windowStart.getTime() + WINDOW_MS);
  const count = await store().increment(bucket, windowStart);
  const result = { limit, remaining: Math.max(0, limit - count), resetAt };
  if (count > limit) {
    const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000));
    throw new AppError("rate_limited", `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfter} s`, {
      ...rateLimitHeaders(result),
      "Retry-After": String(retryAfter),
    });
  }
  return result;
}

export function rateLimitHeaders(r: RateLimitResult): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(r.limit),
    "X-RateLimit-Remaining": String(r.remaining),
    "X-RateLimit-Reset": String(Math.ceil(r.resetAt.getTime() / 1000)),
  };
}
