import { createHash, randomBytes } from "node:crypto";
import QRCode from "qrcode";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { AppError, badRequest, conflict, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { normalizeEmail } from "@/lib/team/users";
import { decryptAtRest, encryptAtRest } from "./encryption";
import { revokeSessionsQuery } from "./revocation";
import { recordSecurityEvent, recordSecurityEventQuietly, type SecurityActor } from "./security-events";
import { throttledSecondFactor } from "./sign-in-throttle";
import { generateTotpSecret, matchingTotpStep, otpauthUri, verifyTotp } from "./totp";

const PURPOSE = "totp-secret";
export const RECOVERY_CODE_COUNT = 10;

const hashCode = (code: string) => createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
const normalizeRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, "");

function newRecoveryCode(): string {
  const raw = randomBytes(8).toString("hex"); // 64 bits: a hash of it cannot be brute-forced
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12)}`;
}

async function loadUser(userId: string) {
  const user = await getDb().user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("User");
  return user;
}

/** Starts enrolment: a new secret (stored encrypted, not yet active), its otpauth URI and a QR code (SVG). */
export async function startTwoFactorEnrolment(userId: string): Promise<{ secret: string; otpauthUri: string; qrSvg: string }> {
  const user = await loadUser(userId);
  if (user.twoFactorEnabled) throw conflict("Two-factor authentication is already on; turn it off first to enrol a new device");
  const secret = generateTotpSecret();
  await getDb().user.update({ where: { id: userId }, data: { twoFactorSecret: encryptAtRest(secret, PURPOSE) } });
  const uri = otpauthUri(secret, user.email);
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, otpauthUri: uri, qrSvg };
}

/** Confirms enrolment with a code from the app; turns two-factor on and returns fresh recovery codes (shown once). */
export async function confirmTwoFactorEnrolment(userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
  const user = await loadUser(userId);
  if (user.twoFactorEnabled) throw conflict("Two-factor authentication is already on");
  if (!user.twoFactorSecret) throw badRequest("Start enrolment first: scan the QR code, then enter the code it shows");
  if (!verifyTotp(decryptAtRest(user.twoFactorSecret, PURPOSE), code)) {
    throw badRequest("That code did not match. Check the time on your phone and enter the current 6-digit code");
  }
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await getDb().$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { twoFactorEnabled: true } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.recoveryCode.createMany({ data: recoveryCodes.map((c) => ({ id: newId("rec"), userId, codeHash: hashCode(c) })) });
    await recordSecurityEvent(tx, { userId, kind: "two_factor_on" });
  });
  return { recoveryCodes };
}

/**
 * Checks a second factor: a current TOTP code, or an unused recovery code (which is then spent).
 * Returns how it was satisfied, or null. Every check of the user's second factor, at sign-in or to turn it off,
 * counts under one limit (lib/session/sign-in-throttle.ts): past it, 429 `rate_limited` before any check.
 */
export async function verifySecondFactor(userId: string, code: string): Promise<"totp" | "recovery" | null> {
  return throttledSecondFactor(userId, () => checkSecondFactor(userId, code));
}

async function checkSecondFactor(userId: string, code: string): Promise<"totp" | "recovery" | null> {
  const user = await loadUser(userId);
  if (!user.twoFactorEnabled || !user.twoFactorSecret) return null;
  const step = matchingTotpStep(decryptAtRest(user.twoFactorSecret, PURPOSE), code);
  if (step !== null) return (await claimTotpStep(userId, step)) ? "totp" : null;
  if (normalizeRecoveryCode(code).length !== 16) return null;
  // Spending is a conditional update, so one recovery code signs in once even when raced.
  const { count } = await getDb().recoveryCode.updateMany({
    where: { userId, codeHash: hashCode(code), usedAt: null },
    data: { usedAt: new Date() },
  });
  if (count !== 1) return null;
  // Not in the spending's transaction: a sign-in with a good recovery code is never refused for its record.
  await recordSecurityEventQuietly({ userId, kind: "recovery_code_used" });
  return "recovery";
}

/**
 * Records the step as used, unless it (or a later one) already was: each code works once,
 * even when two sign-ins race with it (one conditional upsert).
 */
async function claimTotpStep(userId: string, step: number): Promise<boolean> {
  const rows = await getDb().$queryRaw<{ userId: string }[]>`
    INSERT INTO totp_uses ("userId", "lastStep") VALUES (${userId}, ${BigInt(step)})
    ON CONFLICT ("userId") DO UPDATE SET "lastStep" = EXCLUDED."lastStep" WHERE totp_uses."lastStep" < EXCLUDED."lastStep"
    RETURNING "userId"`;
  return rows.length === 1;
}

/**
 * Turns two-factor off after checking a current code (or recovery code); removes the secret and recovery codes.
 * Wrong codes count against the account's second-factor limit, so a stolen session cannot try every code. Recorded as a
 * security event, and the account's address is told.
 */
export async function disableTwoFactor(userId: string, code: string): Promise<void> {
  if (!(await verifySecondFactor(userId, code))) throw badRequest("That code did not match; two-factor authentication is still on");
  const { notify } = await getDb().$transaction((tx) => turnOffTwoFactor(tx, userId, "user"));
  await notify();
}

/**
 * Turns the user's two-factor off in the caller's transaction: the secret (one of an unfinished enrolment too) and the
 * recovery codes removed. When it was on, that is the user's `two_factor_off` security event by `actor`, whose notice
 * emails the account's address; call `notify` once the transaction has committed. Every way two-factor goes off (the
 * user's, the operator's, a reset that takes an account back: unconfirmed-access.ts) comes through here.
 */
export async function turnOffTwoFactor(
  tx: Prisma.TransactionClient,
  userId: string,
  actor: SecurityActor,
): Promise<{ wasOn: boolean; notify: () => Promise<void> }> {
  // The conditional update tells, under the row's lock, whether it was on.
  const { count } = await tx.user.updateMany({ where: { id: userId, twoFactorEnabled: true }, data: { twoFactorEnabled: false } });
  await tx.user.updateMany({ where: { id: userId }, data: { twoFactorSecret: null } });
  await tx.recoveryCode.deleteMany({ where: { userId } });
  if (!count) return { wasOn: false, notify: async () => undefined };
  return { wasOn: true, notify: await recordSecurityEvent(tx, { userId, kind: "two_factor_off", actor }) };
}

/**
 * The operator's way out when the second factor cannot be given: an authenticator lost with its recovery codes (a
 * password reset by email keeps two-factor on, unless it is the first proof of an address someone else may have signed
 * up with: unconfirmed-access.ts). Turns two-factor off without a code, removes the secret and recovery codes, and ends
 * every session of the user, in one transaction. A workspace that requires two-factor for a permission refuses it
 * again (403 `two_factor_required`) until the user enrols anew. When two-factor was on, the change is recorded as a
 * security event by the operator and the account's address is told.
 */
export async function removeTwoFactorByOperator(email: string): Promise<{ userId: string; twoFactorWasOn: boolean }> {
  const db = getDb();
  const user = await db.user.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } });
  if (!user) throw new AppError("not_found", `No user has the email ${email}`);
  const { wasOn, notify } = await db.$transaction(async (tx) => {
    await revokeSessionsQuery(user.id, tx);
    return turnOffTwoFactor(tx, user.id, "operator");
  });
  await notify();
  // Warn, not info: an account's protection was lowered by hand, and stderr keeps the CLI's answer alone on stdout.
  log.warn("two-factor turned off by the operator", { component: "security", userId: user.id, twoFactorWasOn: wasOn });
  return { userId: user.id, twoFactorWasOn: wasOn };
}

/** How many unused recovery codes the user has left. */
export async function remainingRecoveryCodes(userId: string): Promise<number> {
  return getDb().recoveryCode.count({ where: { userId, usedAt: null } });
}
