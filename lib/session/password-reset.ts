import { createHash, randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { badRequest } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { sendEvent } from "@/lib/jobs/outbox";
import { log } from "@/lib/log";
import { isPermanentMailFailure, sendMail } from "@/lib/mail/send-mail";
import { getConfig } from "@/lib/services";
import { normalizeEmail } from "@/lib/team/users";
import { markEmailVerified } from "./email-verification";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from "./password";
import { recordSecurityEvent } from "./security-events";
import { forgetSignInFailures } from "./sign-in-throttle";
import { beginAttempt, keyDigest } from "./throttle";
import { type RevokedAccess, revokeAccessMadeBeforeConfirmation } from "./unconfirmed-access";

export const RESET_TTL_MINUTES = 60;
/** Reset emails one address gets per 15-minute window; further requests answer the same and send nothing. */
export const RESET_REQUESTS_PER_WINDOW = 3;
const RESET_REQUESTS = { name: "password-reset", max: RESET_REQUESTS_PER_WINDOW };
/** The job event that makes and emails one reset link (inngest/functions/password-reset-email.ts). */
export const PASSWORD_RESET_EMAIL_EVENT = "session/password-reset-email";
export interface PasswordResetEmailData {
  /** The account the address belongs to; null when it belongs to none (the event is sent all the same). */
  userId: string | null;
}
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Asks for a one-time link to set a new password. Answers the same whether or not the address has
 * an account (no account discovery through this form); accounts without a password (OAuth) get
 * one this way too.
 * The answer also takes the same time: whatever the address, the request reads the users table once and stores one
 * job event; the link is made and emailed by that job (sendPasswordResetEmail) after the answer, retried when the
 * mail server fails for a while. Making the link and talking to the SMTP server while the visitor waited made known
 * addresses answer measurably slower than unknown ones.
 * Anyone may ask for any address: past RESET_REQUESTS_PER_WINDOW in 15 minutes nothing is sent (and the
 * answer stays the same), so the form cannot flood an inbox.
 */
export async function requestPasswordReset(input: { email: string }): Promise<void> {
  const email = normalizeEmail(input.email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw badRequest("Enter a valid email address");
  // Counted before the account is looked up: known and unknown addresses are limited alike.
  if (!(await beginAttempt(RESET_REQUESTS, keyDigest(email)))) return;
  const user = await getDb().user.findUnique({ where: { email }, select: { id: true } });
  // The event carries the account's id, not the address: addresses of strangers are not kept in the job history.
  const data: PasswordResetEmailData = { userId: user?.id ?? null };
  await sendEvent({ name: PASSWORD_RESET_EMAIL_EVENT, data: { ...data } });
}

/**
 * The job's work: makes a reset link for the account and emails it. The link is built from PUBLIC_BASE_URL, never
 * from the request: whoever asks for a reset chooses the Host and X-Forwarded-Host headers, and the link (with its
 * token) would point at their server.
 * Every link stays usable for RESET_TTL_MINUTES until one of them sets the password (which spends them all): links
 * are emailed by jobs that may run side by side, so "the newest request replaces the earlier links" would let the
 * email that arrives last carry a link already replaced.
 * A mail server that refuses the message for good (a 5xx answer) is not asked again; any other failure throws, and
 * the job retries with a new link (the unsent one is deleted).
 */
export async function sendPasswordResetEmail(data: PasswordResetEmailData): Promise<"sent" | "outbox" | "no_account" | "refused"> {
  if (!data.userId) return "no_account";
  const db = getDb();
  const user = await db.user.findUnique({ where: { id: data.userId }, select: { id: true, email: true, name: true } });
  if (!user) return "no_account";
  const token = randomBytes(24).toString("base64url");
  const reset = await db.passwordReset.create({
    data: { id: newId("pwr"), userId: user.id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + RESET_TTL_MINUTES * 60_000) },
  });
  try {
    const { via } = await sendMail({
      to: user.email,
      subject: "Reset your Adloom password",
      text: [
        `Hi ${user.name || "there"},`,
        "",
        "Someone (hopefully you) asked to reset the password of your Adloom account. Open this link to choose a new one:",
        "",
        `${getConfig().publicBaseUrl}/reset-password/${token}`,
        "",
        `The link works once, for ${RESET_TTL_MINUTES} minutes. If you did not ask for it, ignore this email: your password stays as it is.`,
      ].join("\n"),
    });
    return via === "smtp" ? "sent" : "outbox";
  } catch (err) {
    await db.passwordReset.deleteMany({ where: { id: reset.id } });
    if (isPermanentMailFailure(err)) {
      log.warn("password reset email refused by the mail server", { userId: user.id, err });
      return "refused";
    }
    throw err;
  }
}

/** The reset link's account, while the link is unused and unexpired. */
export async function findPasswordReset(token: string): Promise<{ email: string } | null> {
  const reset = await getDb().passwordReset.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: { select: { email: true } } } });
  if (!reset || reset.usedAt || reset.expiresAt <= new Date()) return null;
  return { email: reset.user.email };
}

/**
 * Sets the new password through a reset link; the link is spent, and every session ended, in the same transaction.
 * The link was mailed to the address, so the address is proven too: an account someone else made with it is now its
 * owner's, with a password only they know and none of the other's sessions. When that proof is the first and the
 * account had a password, whoever held it may have been that someone else: the API keys and app connections made
 * meanwhile are revoked, and two-factor turned off, in the same transaction too (unconfirmed-access.ts); the security
 * event counts the keys and connections, two-factor is an event of its own, and the answer says what was revoked.
 */
export async function completePasswordReset(input: { token: string; password: string }): Promise<{ email: string; revoked?: RevokedAccess }> {
  if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX)
    throw badRequest(`Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the password`);
  const db = getDb();
  const passwordHash = await hashPassword(input.password);
  const { email, revoked, notify } = await db.$transaction(async (tx) => {
    const reset = await tx.passwordReset.findUnique({
      where: { tokenHash: hashToken(input.token) },
      include: { user: { select: { email: true, passwordHash: true } } },
    });
    if (!reset || reset.usedAt || reset.expiresAt <= new Date()) throw badRequest("This reset link has expired or was already used. Ask for a new one.");
    const { count } = await tx.passwordReset.updateMany({ where: { id: reset.id, usedAt: null }, data: { usedAt: new Date() } });
    if (!count) throw badRequest("This reset link has expired or was already used. Ask for a new one.");
    // The account's other links die with this one: they were for the password this replaces.
    await tx.passwordReset.updateMany({ where: { userId: reset.userId, usedAt: null }, data: { usedAt: new Date() } });
    // A new password ends every session signed in with the old one (a stolen session cookie too).
    await tx.user.update({ where: { id: reset.userId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    const firstProof = await markEmailVerified(tx, reset.userId);
    // Without a password before, nobody could sign in to the account: what acts as it was made by an operator.
    const undone = firstProof && reset.user.passwordHash !== null ? await revokeAccessMadeBeforeConfirmation(tx, reset.userId) : undefined;
    const notifyReset = await recordSecurityEvent(tx, { userId: reset.userId, kind: "password_reset", revoked: undone?.revoked });
    const notify = async () => {
      await undone?.notify();
      await notifyReset();
    };
    return { email: reset.user.email, revoked: undone?.revoked, notify };
  });
  await notify();
  await forgetSignInFailures(email);
  return { email, revoked };
}
