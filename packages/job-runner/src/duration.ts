/**
 * Inngest time strings as the SDK emits them for step.sleep / waitForEvent timeouts
 * ("1w2d3h4m5s", always whole seconds) or an ISO date for step.sleepUntil.
 */
const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 };

/** Milliseconds in a duration string like "2h30m"; throws on anything else. */
export function parseDuration(value: string): number {
  const parts = [...value.matchAll(/(\d+)([wdhms])/g)];
  if (!parts.length || parts.map((p) => p[0]).join("") !== value) throw new Error(`Unsupported duration "${value}"`);
  return parts.reduce((ms, [, n, unit]) => ms + Number(n) * UNIT_MS[unit!]!, 0);
}

/** The moment a sleep op named `name` ends, counting durations from `now`. */
export function resolveUntil(name: string, now: Date): Date {
  if (/^\d{4}-\d{2}-\d{2}T/.test(name)) {
    const at = new Date(name);
    if (Number.isNaN(at.getTime())) throw new Error(`Invalid date "${name}"`);
    return at;
  }
  return new Date(now.getTime() + parseDuration(name));
}

/** A Retry-After value (seconds or an ISO date, as RetryAfterError produces) as a Date. */
export function parseRetryAfter(value: string | null, now: Date): Date | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return new Date(now.getTime() + Number(value) * 1000);
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
