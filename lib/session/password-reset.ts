import { createHash, randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { badRequest } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { sendMail } from "@/lib/mail/send-mail";
import { getConfig } from "@/lib/services";
import { normalizeEmail } from "@/lib/team/users";
import { markEmailVerified } from "./email-verification";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from "./password";
import { beginAttempt, clearFailures } from "./throttle";

export const RESET_TTL_MINUTES = 60;
/** Reset emails one address gets per 15-minute window; further requests answer the same and send nothing. */
export const RESET_REQUESTS_PER_WINDOW = 3;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Emails a one-time link to set a new password. Answers the same whether or not the address has
 * an account (no account discovery through this form); accounts without a password (OAuth) get
 * one this way too. A new request replaces the previous link.
 * The link is built from PUBLIC_BASE_URL, never from the request: whoever asks for a reset chooses the
 * Host and X-Forwarded-Host headers, and the link (with its token) would point at their server.
 * Anyone may ask for any address: past RESET_REQUESTS_PER_WINDOW in 15 minutes nothing is sent (and the
 * answer stays the same), so the form cannot flood an inbox.
 */
export async function requestPasswordReset(input: { email: string }): Promise<void> {
  const email = normalizeEmail(input.email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw badRequest("Enter a valid email address");
  // Counted before the account is looked up: known and unknown addresses are limited alike.
  if (!beginAttempt(`reset:${email}`, Date.now(), RESET_REQUESTS_PER_WINDOW)) return;
  const db = getDb();
  const user = await db.user.findUnique({ where: { email }, select: { id: true, name: true } });
  if (!user) return;
  const token = randomBytes(24).toString("base64url");
  await db.$transaction([
    db.passwordReset.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: new Date() } }),
    db.passwordReset.create({
      data: { id: newId("pwr"), userId: user.id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + RESET_TTL_MINUTES * 60_000) },
    }),
  ]);
  await sendMail({
    to: email,
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
 * owner's, with a password only they know and none of the other's sessions.
 */
export async function completePasswordReset(input: { token: string; password: string }): Promise<{ email: string }> {
  if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX)
    throw badRequest(`Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the password`);
  const db = getDb();
  const passwordHash = await hashPassword(input.password);
  const email = await db.$transaction(async (tx) => {
    const reset = await tx.passwordReset.findUnique({ where: { tokenHash: hashToken(input.token) }, include: { user: { select: { email: true } } } });
    if (!reset || reset.usedAt || reset.expiresAt <= new Date()) throw badRequest("This reset link has expired or was already used. Ask for a new one.");
    const { count } = await tx.passwordReset.updateMany({ where: { id: reset.id, usedAt: null }, data: { usedAt: new Date() } });
    if (!count) throw badRequest("This reset link has expired or was already used. Ask for a new one.");
    // A new password ends every session signed in with the old one (a stolen session cookie too).
    await tx.user.update({ where: { id: reset.userId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    await markEmailVerified(tx, reset.userId);
    return reset.user.email;
  });
  clearFailures(`signin:${email}`);
  return { email };
}
