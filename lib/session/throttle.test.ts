import { describe, expect, it } from "vitest";
import { beginAttempt, clearFailures, isThrottled } from "./throttle";

describe("attempt throttling", () => {
  it("counts attempts begun together before any is checked: the eleventh of a burst is refused", () => {
    const key = `burst:${Math.random()}`;
    // Twenty guesses arrive at once: each begins before the first one's slow check has answered.
    const begun = Array.from({ length: 20 }, () => beginAttempt(key));
    expect(begun.filter(Boolean)).toHaveLength(10);
    expect(begun.slice(10).every((b) => !b)).toBe(true);
    expect(isThrottled(key)).toBe(true);
  });

  it("a success forgets the attempts; the window ends after 15 minutes", () => {
    const key = `window:${Math.random()}`;
    const start = Date.now();
    for (let i = 0; i < 9; i++) expect(beginAttempt(key, start)).toBe(true);
    clearFailures(key);
    for (let i = 0; i < 10; i++) expect(beginAttempt(key, start)).toBe(true);
    expect(beginAttempt(key, start)).toBe(false);
    expect(beginAttempt(key, start + 15 * 60_000 + 1)).toBe(true);
  });
});
