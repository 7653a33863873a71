import { AppError } from "@/lib/errors";
import { defineService } from "@/lib/services";

// Failed attempts per key, in fixed 15-minute windows, in this process's memory (a service of its registry, so every
// bundle of the process counts in the same place). Enough to stop online guessing of passwords and 6-digit codes on
// a single instance. The keys and limits of sign-in, password checks and second factors are in sign-in-throttle.ts;
// password-reset requests and review-link passwords count here under their own keys.
export const WINDOW_MS = 15 * 60_000;
const MAX_FAILURES = 10;

const failureCounts = defineService("session.sign-in-failures", () => new Map<string, { count: number; resetAt: number }>());

/** Whether this key has failed too often (`max` times) in the current window. */
export function isThrottled(key: string, now = Date.now(), max = MAX_FAILURES): boolean {
  const entry = failureCounts().get(key);
  return Boolean(entry && entry.resetAt > now && entry.count >= max);
}

/** Counts a failed attempt. */
export function recordFailure(key: string, now = Date.now()): void {
  const failures = failureCounts();
  const entry = failures.get(key);
  if (!entry || entry.resetAt <= now) failures.set(key, { count: 1, resetAt: now + WINDOW_MS });
  else entry.count++;
  if (failures.size > 50_000) for (const [k, v] of failures) if (v.resetAt <= now) failures.delete(k);
}

/**
 * Starts an attempt under the key's limit: false when the key is throttled. Otherwise the attempt counts as a
 * failure at once, until `clearFailures` (or `refundAttempt`) on success. Attempts sent together are each counted
 * before any is checked: counting after the slow password check let a burst of parallel guesses past the limit.
 */
export function beginAttempt(key: string, now = Date.now(), max = MAX_FAILURES): boolean {
  if (isThrottled(key, now, max)) return false;
  recordFailure(key, now);
  return true;
}

/** Forgets failures after a successful sign-in. */
export function clearFailures(key: string): void {
  failureCounts().delete(key);
}

/** Forgets the failures of every key starting with `prefix` (rare: walks every key). */
export function clearFailuresWithPrefix(prefix: string): void {
  const failures = failureCounts();
  for (const key of failures.keys()) if (key.startsWith(prefix)) failures.delete(key);
}

/**
 * Takes back one attempt begun with `beginAttempt` that succeeded, leaving the key's other failures counted: for
 * keys many people share (a client address), where one success must not wipe out someone else's failures.
 */
export function refundAttempt(key: string, now = Date.now()): void {
  const entry = failureCounts().get(key);
  if (entry && entry.resetAt > now && entry.count > 0) entry.count--;
}

/** Seconds until the key's window ends (at least 1). */
export function secondsUntilReset(key: string, now = Date.now()): number {
  const entry = failureCounts().get(key);
  return Math.max(1, Math.ceil(((entry?.resetAt ?? now) - now) / 1000));
}

/** The 429 `rate_limited` answer for a throttled key: the error envelope with Retry-After (the window's end). */
export function tooManyAttempts(key: string, what: string, now = Date.now()): AppError {
  const seconds = secondsUntilReset(key, now);
  const minutes = Math.ceil(seconds / 60);
  return new AppError("rate_limited", `Too many wrong ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
    "Retry-After": String(seconds),
  });
}
