import { paced } from "../../scripts/test-pace.mjs";

/**
 * Polls `fn` every 100 ms until it returns something truthy; fails naming `what` after `timeoutMs`, stretched by the
 * run's pace (scripts/test-pace.mjs).
 */
export async function until<T>(fn: () => Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + paced(timeoutMs);
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Returns at once unless the next full hour of the wall clock is under `marginMs` away; then waits until it has
 * passed. For a test whose steps must fall in one hour of a clock keyed by the hour (a rule's run per hour: the
 * sandbox clock is the wall clock moved by whole hours), so that a real hour turning mid-test cannot split them.
 */
export async function clearOfTheHour(marginMs: number): Promise<void> {
  const HOUR = 3_600_000;
  const left = HOUR - (Date.now() % HOUR);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 100));
}
