import { defineService } from "@/lib/services";

// Sign-in attempts per email (and password-reset requests per address, with their own lower limit), in fixed
// windows, in this process's memory (a service of its registry, so every bundle of the process counts in the same
// place). Enough to stop online guessing of passwords and 6-digit codes on a single instance. Not per client address.
const WINDOW_MS = 15 * 60_000;
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
 * failure at once, until `clearFailures` on success. Attempts sent together are each counted before any is
 * checked: counting after the slow password check let a burst of parallel guesses past the limit.
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
