import { describe, expect, it } from "vitest";
import type { AppError } from "@/lib/errors";
import {
  beginPasswordAttempt,
  forgetSignInFailures,
  passwordAttemptSucceeded,
  SECOND_FACTOR_FAILURES_PER_ACCOUNT,
  SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
  SIGN_IN_FAILURES_PER_ADDRESS,
  throttledPasswordCheck,
  throttledSecondFactor,
} from "./sign-in-throttle";
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

describe("sign-in limits (sign-in-throttle.ts)", () => {
  const unique = () => `${Math.random().toString(36).slice(2)}`;

  it("an account's failures count per client address: a stranger's ten do not throttle the owner elsewhere", () => {
    const email = `owner-${unique()}@example.com`;
    const stranger = `198.51.100.${Math.floor(Math.random() * 200)}-${unique()}`;
    const owner = `203.0.113.7-${unique()}`;
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS; i++) expect(beginPasswordAttempt(email, stranger)).toBe(true);
    expect(beginPasswordAttempt(email, stranger)).toBe(false);
    expect(beginPasswordAttempt(email, owner)).toBe(true);
    passwordAttemptSucceeded(email, owner);
    // A password reset forgets the account's failures from every address.
    forgetSignInFailures(email);
    expect(beginPasswordAttempt(email, stranger)).toBe(true);
  });

  it("one address trying many accounts is stopped at 30 failures; its successes take back only their own attempt", () => {
    const address = `192.0.2.1-${unique()}`;
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS - 1; i++) expect(beginPasswordAttempt(`spray-${i}-${unique()}@example.com`, address)).toBe(true);
    // The sprayer's own account, signed in correctly: it does not wipe out the 29 failures.
    const own = `own-${unique()}@example.com`;
    expect(beginPasswordAttempt(own, address)).toBe(true);
    passwordAttemptSucceeded(own, address);
    expect(beginPasswordAttempt(`spray-last-${unique()}@example.com`, address)).toBe(true);
    expect(beginPasswordAttempt(`spray-next-${unique()}@example.com`, address)).toBe(false);
    expect(beginPasswordAttempt(own, address)).toBe(false);
    expect(beginPasswordAttempt(`spray-next-${unique()}@example.com`, `${address}-other`)).toBe(true);
  });

  it("second factors and password checks: 10 wrong per account, then 429 rate_limited with Retry-After, without checking", async () => {
    const userId = `usr_${unique()}`;
    let checks = 0;
    const wrong = async () => (checks++, null);
    for (let i = 0; i < SECOND_FACTOR_FAILURES_PER_ACCOUNT; i++) expect(await throttledSecondFactor(userId, wrong)).toBeNull();
    const refused = await throttledSecondFactor(userId, async () => (checks++, "totp")).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "rate_limited", status: 429 });
    expect(Number((refused as AppError).headers["Retry-After"])).toBeGreaterThan(14 * 60);
    expect(Number((refused as AppError).headers["Retry-After"])).toBeLessThanOrEqual(15 * 60);
    expect(checks).toBe(10);
    // The password check of the same account counts on its own.
    expect(await throttledPasswordCheck(userId, async () => true)).toBe(true);
  });

  it("a right answer forgets the account's wrong ones", async () => {
    const userId = `usr_${unique()}`;
    for (let i = 0; i < 9; i++) expect(await throttledPasswordCheck(userId, async () => false)).toBe(false);
    expect(await throttledPasswordCheck(userId, async () => true)).toBe(true);
    for (let i = 0; i < 10; i++) expect(await throttledPasswordCheck(userId, async () => false)).toBe(false);
    await expect(throttledPasswordCheck(userId, async () => true)).rejects.toMatchObject({ code: "rate_limited" });
  });
});
