import { createHash, randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { badRequest, forbidden } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { sendMail } from "@/lib/mail/send-mail";
import { getConfig } from "@/lib/services";
import { recordSecurityEvent } from "./security-events";
import { beginAttempt, keyDigest } from "./throttle";

/**
 * Email verification: an account's address counts as its owner's once proven, by one of
 * - the confirmation link mailed at sign-up (or sent again), opened while signed in to that account;
 * - a password set through the mailed reset link (lib/session/password-reset.ts);
 * - an invite accepted through its emailed link, not the copy shown to its sender (lib/team/invites.ts);
 * - a Google or GitHub sign-in whose provider says the address is verified (lib/session/accounts.ts).
 * Until then a password account cannot be opened with Google or GitHub and accepts invites only through their emailed
 * link: whoever typed the address at sign-up may not own it (docs/decisions.md, "Email verification").
 */

export const VERIFY_TTL_HOURS = 24;
/** Confirmation emails one address gets per 15-minute window (the sign-up's included); further requests send nothing. */
export const VERIFY_EMAILS_PER_WINDOW = 3;
const VERIFY_EMAILS = { name: "email-verification", max: VERIFY_EMAILS_PER_WINDOW };
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const unusable = () => badRequest("This confirmation link has expired, was replaced by a newer one or was already used");

export interface EmailVerificationStatus {
  email: string;
  verified: boolean;
}

/** The user's address and whether it is proven; null for an unknown user. */
export async function emailVerificationStatus(userId: string): Promise<EmailVerificationStatus | null> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { email: true, emailVerifiedAt: true } });
  return user && { email: user.email, verified: user.emailVerifiedAt !== null };
}

/**
 * Marks the user's address as proven (kept as it was when it already is), inside the caller's transaction; the first
 * proof is a security event. True when this was the first proof (the address was unconfirmed until now).
 */
export async function markEmailVerified(tx: Prisma.TransactionClient, userId: string): Promise<boolean> {
  const { count } = await tx.user.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: { emailVerifiedAt: new Date() } });
  if (count) await recordSecurityEvent(tx, { userId, kind: "email_confirmed" });
  return count > 0;
}

/**
 * Mails the user a link to confirm their address, replacing any earlier one. At most VERIFY_EMAILS_PER_WINDOW per
 * address in 15 minutes (the sign-in throttle's window): past it nothing is sent and the answer is "throttled".
 * The link is built from PUBLIC_BASE_URL, never from a request (see password-reset.ts). An SMTP failure is thrown.
 */
export async function sendEmailVerification(userId: string): Promise<"sent" | "throttled" | "already_verified"> {
  const db = getDb();
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, name: true, emailVerifiedAt: true } });
  if (!user) throw badRequest("No such user");
  if (user.emailVerifiedAt) return "already_verified";
  if (!(await beginAttempt(VERIFY_EMAILS, keyDigest(user.email)))) return "throttled";
  const token = randomBytes(24).toString("base64url");
  await db.$transaction([
    db.emailVerification.updateMany({ where: { userId, usedAt: null }, data: { usedAt: new Date() } }),
    db.emailVerification.create({
      data: { id: newId("emv"), userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + VERIFY_TTL_HOURS * 3_600_000) },
    }),
  ]);
  await sendMail({
    to: user.email,
    subject: "Confirm your email address for Adloom",
    text: [
      `Hi ${user.name || "there"},`,
      "",
      "Someone (hopefully you) created an Adloom account with this email address. Open this link, signed in to that account, to confirm the address is yours:",
      "",
      `${getConfig().publicBaseUrl}/verify-email/${token}`,
      "",
      `The link works once, for ${VERIFY_TTL_HOURS} hours.`,
      "If you did not create an Adloom account, do not confirm it: ignore this email. To take the account over instead, choose “Forgot your password?” on the sign-in page: setting a password through the link it mails you ends every session of whoever made the account.",
    ].join("\n"),
  });
  return "sent";
}

/** Mails a new account its confirmation link; a failure is logged, not thrown: the account exists either way. */
export async function mailVerificationLink(userId: string): Promise<void> {
  try {
    await sendEmailVerification(userId);
  } catch (error) {
    console.warn(`[adloom] could not email the address confirmation link: ${(error as Error).message}`);
  }
}

/** The confirmation link's account, while the link is unused and unexpired. */
export async function findEmailVerification(token: string): Promise<{ userId: string; email: string } | null> {
  const link = await getDb().emailVerification.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: { select: { email: true } } } });
  if (!link || link.usedAt || link.expiresAt <= new Date()) return null;
  return { userId: link.userId, email: link.user.email };
}

/**
 * Confirms the signed-in user's address with the link mailed to it. The link proves who reads the mailbox, the session
 * who holds the account: only both together say the account's holder owns the address, so a link opened by someone
 * else (the real owner, mailed for an account a stranger made with their address) confirms nothing.
 */
export async function confirmEmailVerification(userId: string, token: string): Promise<{ email: string }> {
  return getDb().$transaction(async (tx) => {
    const link = await tx.emailVerification.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: { select: { email: true } } } });
    if (!link || link.usedAt || link.expiresAt <= new Date()) throw unusable();
    if (link.userId !== userId) throw forbidden(`This link confirms the address of another account (${link.user.email}): sign in as that account`);
    const { count } = await tx.emailVerification.updateMany({ where: { id: link.id, usedAt: null }, data: { usedAt: new Date() } });
    if (!count) throw unusable();
    await markEmailVerified(tx, userId);
    return { email: link.user.email };
  });
}
