import { type AttemptLimit, type Counter, clearFailuresWithPrefix, countAttempt, keyDigest, settleAttempts, tooManyAttempts } from "./throttle";

/**
 * Who may guess how often, per 15 minutes (lib/session/throttle.ts counts, in the database: shared by every instance
 * and kept across restarts; docs/decisions.md, "Dashboard"):
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

const SIGN_IN: AttemptLimit = { name: "sign-in", max: SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS };
const SIGN_IN_ADDRESS: AttemptLimit = { name: "sign-in-address", max: SIGN_IN_FAILURES_PER_ADDRESS };
const SECOND_FACTOR: AttemptLimit = { name: "second-factor", max: SECOND_FACTOR_FAILURES_PER_ACCOUNT };
const PASSWORD_CHECK: AttemptLimit = { name: "password-check", max: PASSWORD_CHECK_FAILURES_PER_ACCOUNT };

// The email first, so one prefix finds the account's counters from every address (forgetSignInFailures).
const accountPrefix = (email: string) => `${keyDigest(email)}|`;
const accountAndAddress = (email: string, address: string): Counter => ({ limit: SIGN_IN, key: `${accountPrefix(email)}${keyDigest(address)}` });
const fromAddress = (address: string): Counter => ({ limit: SIGN_IN_ADDRESS, key: keyDigest(address) });

/**
 * Starts a sign-in's password check: false when the account (from this address) or the address is throttled;
 * otherwise it counts as a failure for both until `passwordAttemptSucceeded`. Checked and counted in one statement,
 * so parallel attempts (from any process) cannot slip past either limit.
 */
export async function beginPasswordAttempt(email: string, address: string, now = Date.now()): Promise<boolean> {
  return (await countAttempt([accountAndAddress(email, address), fromAddress(address)], now)).allowed;
}

/** The password was right: the account's failures from this address are forgotten, this attempt taken back from the address's. */
export async function passwordAttemptSucceeded(email: string, address: string, now = Date.now()): Promise<void> {
  await settleAttempts({ clear: [accountAndAddress(email, address)], refund: [fromAddress(address)] }, now);
}

/** After a password reset: the account's sign-in failures, from every address, are forgotten. */
export async function forgetSignInFailures(email: string): Promise<void> {
  await clearFailuresWithPrefix(SIGN_IN, accountPrefix(email));
}

/**
 * Runs `check` (a second factor of the user) under the account's limit: throws 429 `rate_limited` (with Retry-After)
 * when the account is throttled; a failed check counts, a passed one forgets the account's failures.
 */
export async function throttledSecondFactor<T>(userId: string, check: () => Promise<T | null>): Promise<T | null> {
  return throttled({ limit: SECOND_FACTOR, key: userId }, "codes", check);
}

/** As throttledSecondFactor, for a signed-in user's current password. */
export async function throttledPasswordCheck(userId: string, check: () => Promise<boolean>): Promise<boolean> {
  return (await throttled({ limit: PASSWORD_CHECK, key: userId }, "passwords", async () => ((await check()) ? true : null))) ?? false;
}

async function throttled<T>(counter: Counter, what: string, check: () => Promise<T | null>): Promise<T | null> {
  const attempt = await countAttempt([counter]);
  if (!attempt.allowed) throw tooManyAttempts(attempt.retryAt, what);
  const result = await check();
  if (result) await settleAttempts({ clear: [counter] });
  return result;
}
