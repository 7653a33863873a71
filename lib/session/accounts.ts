import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { badRequest, conflict, isAppError } from "@/lib/errors";
import { normalizeEmail } from "@/lib/team/users";
import { createWorkspace } from "@/lib/workspaces/workspaces";
import { mailVerificationLink } from "./email-verification";
import { dummyPasswordHash, hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "./password";
import { recordSecurityEvent } from "./security-events";

export const SignUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100, "Name is too long"),
  email: z.string().trim().email("Enter a valid email address").max(254),
  password: z.string().min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`).max(PASSWORD_MAX, "Password is too long"),
  workspaceName: z.string().trim().min(1, "Name your workspace").max(100, "Workspace name is too long"),
});
export type SignUpInput = z.infer<typeof SignUpSchema>;

/**
 * Creates a user with a password and their first workspace, on the 14-day free trial, and mails the link that confirms
 * the address (lib/session/email-verification.ts). The account works at once; a mail that cannot be sent does not undo
 * it (the dashboard offers to send the link again).
 */
export async function signUp(input: SignUpInput): Promise<{ userId: string; workspaceId: string }> {
  const parsed = SignUpSchema.safeParse(input);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  const email = normalizeEmail(parsed.data.email);
  if (await getDb().user.findUnique({ where: { email }, select: { id: true } })) {
    throw conflict("An account with this email already exists; sign in instead");
  }
  const passwordHash = await hashPassword(parsed.data.password);
  const { workspaceId, ownerUserId } = await createWorkspace({
    name: parsed.data.workspaceName,
    plan: null,
    ownerEmail: email,
    ownerName: parsed.data.name,
    ownerPasswordHash: passwordHash,
    ownerIsNew: true,
  });
  await mailVerificationLink(ownerUserId);
  return { userId: ownerUserId, workspaceId };
}

export interface SignInUser {
  id: string;
  email: string;
  name: string;
  twoFactorEnabled: boolean;
}

/** The user when the email and password match, else null (in the same time either way). */
export async function verifyCredentials(email: string, password: string): Promise<SignInUser | null> {
  const user = await getDb().user.findUnique({ where: { email: normalizeEmail(email) } });
  if (!user?.passwordHash) {
    await verifyPassword(password, await dummyPasswordHash());
    return null;
  }
  if (!(await verifyPassword(password, user.passwordHash))) return null;
  return { id: user.id, email: user.email, name: user.name, twoFactorEnabled: user.twoFactorEnabled };
}

/** Sets a password for a user who has none yet (members added by an operator or an invite). */
export async function setInitialPassword(userId: string, password: string, name?: string): Promise<void> {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) throw badRequest(`Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the password`);
  const { count } = await getDb().user.updateMany({
    where: { id: userId, passwordHash: null },
    data: { passwordHash: await hashPassword(password), ...(name?.trim() ? { name: name.trim().slice(0, 100) } : {}) },
  });
  if (count === 0) throw conflict("This account already has a password; sign in instead");
}

export type OAuthSignIn = { ok: true; user: SignInUser } | { ok: false; reason: "unverified_account" };

/**
 * The user behind an address Google or GitHub says is verified (the caller checks that it does): a new address gets a
 * verified user and a workspace on the free trial. An existing account whose address was never proven is not handed
 * over while it has a password: whoever chose that password may not own the address, and would keep a way into the
 * account its owner then uses (pre-account takeover). The owner proves the address first, by signing in with the
 * password and opening the mailed confirmation link, or by setting a new password through the mailed reset link,
 * which ends every session of the account. An unproven account without a password (made by an operator) has nobody to keep
 * out: this sign-in proves its address.
 */
export async function oauthSignIn(email: string, name: string | null | undefined): Promise<OAuthSignIn> {
  const normalized = normalizeEmail(email);
  const db = getDb();
  for (let attempt = 0; ; attempt++) {
    const existing = await db.user.findUnique({ where: { email: normalized } });
    if (existing) {
      if (!existing.emailVerifiedAt) {
        if (existing.passwordHash) return { ok: false, reason: "unverified_account" };
        // Marked only while it still has no password; when that changed meanwhile, decide again.
        const { count } = await db.user.updateMany({
          where: { id: existing.id, passwordHash: null, emailVerifiedAt: null },
          data: { emailVerifiedAt: new Date() },
        });
        if (!count && attempt === 0) continue;
        if (!count) throw conflict("The account changed during sign-in; try again");
      }
      return { ok: true, user: { id: existing.id, email: existing.email, name: existing.name, twoFactorEnabled: existing.twoFactorEnabled } };
    }
    const displayName = name?.trim() || normalized.split("@")[0]!;
    try {
      const { ownerUserId } = await createWorkspace({
        name: `${displayName}'s workspace`,
        plan: null,
        ownerEmail: normalized,
        ownerName: displayName,
        ownerIsNew: true,
        ownerEmailVerified: true,
      });
      return { ok: true, user: { id: ownerUserId, email: normalized, name: displayName, twoFactorEnabled: false } };
    } catch (error) {
      // The address got an account meanwhile (a sign-up at the same moment): decide again, as for any existing one.
      if (attempt === 0 && isAppError(error) && error.code === "conflict") continue;
      throw error;
    }
  }
}

/** The id of the user an OAuth sign-in admitted (oauthSignIn made or found it). */
export async function oauthUserId(email: string): Promise<string> {
  return (await getDb().user.findUniqueOrThrow({ where: { email: normalizeEmail(email) }, select: { id: true } })).id;
}

/**
 * Operator path: sets (or resets) a user's password, e.g. for someone locked out; the user must exist. Recorded as a
 * security event by the operator, and the account's address is told.
 */
export async function resetPassword(email: string, password: string): Promise<{ userId: string }> {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) throw badRequest(`Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the password`);
  const user = await getDb().user.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } });
  if (!user) throw badRequest(`No user with the email ${email}`);
  const passwordHash = await hashPassword(password);
  const notify = await getDb().$transaction(async (tx) => {
    // A new password ends every session signed in with the old one.
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    return recordSecurityEvent(tx, { userId: user.id, kind: "password_set_by_operator", actor: "operator" });
  });
  await notify();
  return { userId: user.id };
}
