/**
 * The background retry schedule: the waits before each retry that follows the immediate one.
 * Written like "1m,5m,15m,30m,1h,8h" (units ms, s, m, h); WEBHOOK_RETRY_SCHEDULE overrides it.
 */
export const DEFAULT_RETRY_SCHEDULE = "1m,5m,15m,30m,1h,8h";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses "1m,5m,1h" into milliseconds; throws with a readable message on a bad entry. */
export function parseRetrySchedule(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed === "none") return [];
  return trimmed.split(",").map((entry) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(entry);
    if (!match) throw new Error(`"${entry.trim()}" is not a duration like 500ms, 30s, 5m or 2h`);
    return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
  });
}

/** "1m" / "8h" / "1.5s" for messages and docs. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
