/** Delay before retry number `attempt` (1-based), in milliseconds. */
export type BackoffFn = (attempt: number) => number;

/**
 * Exponential backoff with ±20% jitter, like Inngest's default schedule in spirit:
 * base, 2×base, 4×base ... capped at `maxMs`.
 */
export function exponentialBackoff(baseMs = 10_000, maxMs = 3_600_000): BackoffFn {
  return (attempt) => {
    const raw = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(raw * (0.8 + Math.random() * 0.4));
  };
}
