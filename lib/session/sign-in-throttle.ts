import { beginAttempt, clearFailures, clearFailuresWithPrefix, isThrottled, recordFailure, refundAttempt, tooManyAttempts } from "./throttle";

/**
 * Who may guess how often, per 15 minutes (lib/session/throttle.ts counts; docs/decisions.md, "Dashboard"):
 *
 * - a password for one account, from one client address: 10 wrong ones. Keyed with the address, so a stranger
 *   failing on purpose throttles only themselves: the owner, elsewhere, still signs in (no lockout at will).
 * - passwords from one client address, whatever the accounts: 30 wrong ones (one password tried across many
 *   accounts, "password spraying"). A success takes back its own attempt, not the address's failures.
 * - second factors of one account (authenticator or recovery codes, at sign-in and to turn two-factor off): 10 wrong
 *   ones, from anywhere. Only someone who got past the password (or holds a session) reaches them.
 * - the current password checked by a signed-in session (changing the password): 10 wrong ones per account.
 */
export const SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS = 10;
export const SIGN_IN_FAILURES_PER_ADDRESS = 30;
export const SECOND_FACTOR_FAILURES_PER_ACCOUNT = 10;
export const PASSWORD_CHECK_FAILURES_PER_ACCOUNT = 10;

const accountAndAddressKey = (email: string, address: string) => `signin:${email}|${address}`;
const addressKey = (address: string) => `signin-address:${address}`;
const secondFactorKey = (userId: string) => `second-factor:${userId}`;
const passwordCheckKey = (userId: string) => `password-check:${userId}`;

/**
 * Starts a sign-in's password check: false when the account (from this address) or the address is throttled;
 * otherwise it counts as a failure for both until `passwordAttemptSucceeded`. Checked and counted without awaiting in
 * between, so parallel attempts cannot slip past either limit.
 */
export function beginPasswordAttempt(email: string, address: string, now = Date.now()): boolean {
  const pair = accountAndAddressKey(email, address);
  const perAddress = addressKey(address);
  if (isThrottled(pair, now, SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS) || isThrottled(perAddress, now, SIGN_IN_FAILURES_PER_ADDRESS)) return false;
  recordFailure(pair, now);
  recordFailure(perAddress, now);
  return true;
}

/** The password was right: the account's failures from this address are forgotten, this attempt taken back from the address's. */
export function passwordAttemptSucceeded(email: string, address: string, now = Date.now()): void {
  clearFailures(accountAndAddressKey(email, address));
  refundAttempt(addressKey(address), now);
}

/** After a password reset: the account's sign-in failures, from every address, are forgotten. */
export function forgetSignInFailures(email: string): void {
  clearFailuresWithPrefix(accountAndAddressKey(email, ""));
}

/**
 * Runs `check` (a second factor of the user) under the account's limit: throws 429 `rate_limited` (with Retry-After)
 * when the account is throttled; a failed check counts, a passed one forgets the account's failures.
 */
export async function throttledSecondFactor<T>(userId: string, check: () => Promise<T | null>): Promise<T | null> {
  return throttled(secondFactorKey(userId), SECOND_FACTOR_FAILURES_PER_ACCOUNT, "codes", check);
}

/** As throttledSecondFactor, for a signed-in user's current password. */
export async function throttledPasswordCheck(userId: string, check: () => Promise<boolean>): Promise<boolean> {
  return (await throttled(passwordCheckKey(userId), PASSWORD_CHECK_FAILURES_PER_ACCOUNT, "passwords", async () => ((await check()) ? true : null))) ?? false;
}

async function throttled<T>(key: string, max: number, what: string, check: () => Promise<T | null>): Promise<T | null> {
  if (!beginAttempt(key, Date.now(), max)) throw tooManyAttempts(key, what);
  const result = await check();
  if (result) clearFailures(key);
  return result;
}
