import { createHash, randomBytes } from "node:crypto";
import { authorizePermission } from "@/lib/auth/authorize-permission";
import type { Principal } from "@/lib/auth/principal";
import { roleAllows, ROLES } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { emitEventsInTransaction } from "@/lib/events/emit";
import { badRequest, conflict, forbidden, notFound } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { mailVerificationLink, markEmailVerified } from "@/lib/session/email-verification";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from "@/lib/session/password";
import { sendMail } from "@/lib/mail/send-mail";
import { createNewUser, normalizeEmail } from "./users";

export const INVITE_TTL_DAYS = 7;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface InviteSummary {
  id: string;
  email: string;
  role: Role;
  folderIds: string[];
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Only owners may hand out the owner role. */
export function assertMayGrantRole(principal: Principal, role: Role): void {
  if (!ROLES.includes(role)) throw badRequest(`Role must be one of ${ROLES.join(", ")}`);
  if (role === "owner" && principal.role !== "owner") throw forbidden("Only an owner can make someone an owner");
}

async function assertFoldersOfWorkspace(workspaceId: string, folderIds: string[]): Promise<void> {
  if (!folderIds.length) return;
  const found = await getDb().folder.count({ where: { workspaceId, id: { in: folderIds } } });
  if (found !== folderIds.length) throw badRequest("Every folder must be a folder of this workspace");
}

/**
 * Invites someone by email: the link `<baseUrl>/invite/<token>` is returned for the inviter to copy, and emailed (SMTP,
 * or the outbox when none is configured) with a second secret, `?mail=<proof>`, that only the email carries: accepting
 * through the emailed link proves the invitee reads that mailbox (their address is then verified), accepting through
 * the copy does not, since its sender holds it too. A new invite to the same email replaces the old one. A mail that
 * cannot be sent does not undo the invite (`emailed` false).
 */
export async function createInvite(
  principal: Principal,
  input: { email: string; role: Role; folderIds?: string[]; baseUrl: string },
): Promise<{ id: string; token: string; url: string; expiresAt: string; emailed: boolean }> {
  authorizePermission(principal, "team.manage");
  const email = normalizeEmail(input.email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw badRequest("Enter a valid email address");
  assertMayGrantRole(principal, input.role);
  const folderIds = [...new Set(input.folderIds ?? [])];
  await assertFoldersOfWorkspace(principal.workspaceId, folderIds);
  const db = getDb();
  const already = await db.membership.count({ where: { workspaceId: principal.workspaceId, user: { email } } });
  if (already) throw conflict(`${email} is already a member of this workspace`);

  const token = randomBytes(24).toString("base64url");
  const mailProof = randomBytes(24).toString("base64url");
  const id = newId("inv");
  const expiresAt = new Date(Date.now() + INVITE_TTL_DAYS * 86_400_000);
  await db.$transaction([
    db.invite.updateMany({ where: { workspaceId: principal.workspaceId, email, acceptedAt: null, revokedAt: null }, data: { revokedAt: new Date() } }),
    db.invite.create({
      data: {
        id,
        workspaceId: principal.workspaceId,
        email,
        role: input.role,
        folderIds,
        tokenHash: hashToken(token),
        mailProofHash: hashToken(mailProof),
        invitedById: principal.userId,
        expiresAt,
      },
    }),
  ]);
  const url = `${input.baseUrl}/invite/${token}`;
  const workspace = await db.workspace.findUnique({ where: { id: principal.workspaceId }, select: { name: true } });
  let emailed = true;
  try {
    await sendMail({
      to: email,
      subject: `${principal.userName} invited you to ${workspace?.name ?? "a workspace"} on Adloom`,
      text: [
        `${principal.userName} invited you to join ${workspace?.name ?? "their workspace"} on Adloom as ${input.role}.`,
        "",
        `Accept the invite: ${url}?mail=${mailProof}`,
        "",
        `The link works once, for ${INVITE_TTL_DAYS} days.`,
      ].join("\n"),
    });
  } catch (error) {
    emailed = false;
    console.warn(`[adloom] could not email the invite to ${email}: ${(error as Error).message}`);
  }
  return { id, token, url, expiresAt: expiresAt.toISOString(), emailed };
}

/** Pending (not accepted, revoked or expired) invites of the active workspace, newest first. */
export async function listInvites(principal: Principal): Promise<InviteSummary[]> {
  authorizePermission(principal, "team.manage");
  const invites = await getDb().invite.findMany({
    where: { workspaceId: principal.workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    include: { invitedBy: { select: { name: true } } },
  });
  return invites.map((i) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    folderIds: i.folderIds,
    invitedBy: i.invitedBy.name,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  }));
}

/** Withdraws a pending invite; its link stops working. */
export async function revokeInvite(principal: Principal, inviteId: string): Promise<void> {
  authorizePermission(principal, "team.manage");
  const { count } = await getDb().invite.updateMany({
    where: { id: inviteId, workspaceId: principal.workspaceId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (!count) throw notFound("Invite");
}

export interface InviteDetails {
  workspaceName: string;
  email: string;
  role: Role;
  invitedBy: string;
  /** An account with the invite's email exists: the person signs in to accept (else the link makes the account). */
  accountExists: boolean;
  /** That account has a password (otherwise it signs in with Google or GitHub, or sets one through "Forgot password"). */
  hasPassword: boolean;
  /** The link was opened from the invite's email (its `mail` proof matches): accepting through it verifies the address. */
  fromEmail: boolean;
}

/**
 * The invite of a link while it can be used: not accepted, withdrawn or expired, its workspace active, and its
 * sender still a member who may make it (team.manage; owner for an owner invite). An invite speaks for its
 * sender: a removed or demoted admin's pending invites would otherwise let them, or anyone they sent one to,
 * back in with the role they no longer have.
 */
async function findUsableInvite(token: string) {
  const db = getDb();
  const invite = await db.invite.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { workspace: { select: { name: true, status: true } }, invitedBy: { select: { name: true } } },
  });
  const unusable = () => notFound("This invite link has expired, was withdrawn or was already used. Ask for a new one");
  if (!invite || invite.revokedAt || invite.acceptedAt || invite.expiresAt <= new Date() || invite.workspace.status !== "active") throw unusable();
  const sender = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: invite.workspaceId, userId: invite.invitedById } },
    select: { role: true },
  });
  if (!sender || !roleAllows(sender.role, "team.manage") || (invite.role === "owner" && sender.role !== "owner")) throw unusable();
  return invite;
}

/** Whether `proof` is the secret of the invite's emailed link. */
function provesMailbox(invite: { mailProofHash: string | null }, proof: string | null | undefined): boolean {
  return Boolean(proof && invite.mailProofHash && hashToken(proof) === invite.mailProofHash);
}

/** What an invite link offers, for the page a recipient lands on; `proof`: the emailed link's `mail` parameter. */
export async function getInvite(token: string, proof?: string | null): Promise<InviteDetails> {
  const invite = await findUsableInvite(token);
  const user = await getDb().user.findUnique({ where: { email: invite.email }, select: { passwordHash: true } });
  return {
    workspaceName: invite.workspace.name,
    email: invite.email,
    role: invite.role,
    invitedBy: invite.invitedBy.name,
    accountExists: Boolean(user),
    hasPassword: Boolean(user?.passwordHash),
    fromEmail: provesMailbox(invite, proof),
  };
}

type UsableInvite = Awaited<ReturnType<typeof findUsableInvite>>;
type Tx = Parameters<Parameters<ReturnType<typeof getDb>["$transaction"]>[0]>[0];

/** Why an unverified account may not accept through the link its invite's sender was shown. */
const UNCONFIRMED = (email: string) =>
  `Your address ${email} is not confirmed yet. Open this invite from the email sent to it (that link confirms the address), or confirm it through the link we emailed you, then accept`;

/**
 * Accepts an invite for a signed-in user whose email it names: they become a member (role and
 * folders from the invite), with `team.member_joined` stored in the same transaction.
 * The account's address must be verified, or be proven now by the emailed link (`proof`), which then verifies it: an
 * account someone made with another person's address, holding the link its sender was shown (their own invite, or
 * one passed on), must not join in the owner's name.
 */
export async function acceptInvite(userId: string, token: string, proof?: string | null): Promise<{ workspaceId: string }> {
  const invite = await findUsableInvite(token);
  const db = getDb();
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("User");
  if (user.email !== invite.email) throw forbidden(`This invite is for ${invite.email}; you are signed in as ${user.email}`);
  const proven = provesMailbox(invite, proof);
  if (!user.emailVerifiedAt && !proven) throw forbidden(UNCONFIRMED(user.email));
  const joined = await db.$transaction(async (tx) => {
    if (proven) await markEmailVerified(tx, userId);
    return joinWorkspace(tx, invite, userId, user);
  });
  await joined.afterCommit();
  return { workspaceId: invite.workspaceId };
}

/**
 * For an invitee without an account: creates it and makes them a member, in one transaction, so a
 * refused invite leaves no account behind. The caller then signs them in. An account that exists
 * already, with or without a password, is never given one here: whoever made the invite also holds
 * its link, so the link proves nothing about the address. Such a person signs in (Google, GitHub, or
 * a password set through the reset link mailed to them) and accepts.
 * Through the emailed link (`proof`) the new account's address is verified; through the copy its sender was shown it
 * is not, and the account is mailed a confirmation link as at sign-up.
 */
export async function acceptInviteWithNewAccount(
  token: string,
  input: { name: string; password: string },
  proof?: string | null,
): Promise<{ userId: string; email: string; workspaceId: string }> {
  const invite = await findUsableInvite(token);
  if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX)
    throw badRequest(`Use ${PASSWORD_MIN} to ${PASSWORD_MAX} characters for the password`);
  const name = input.name.trim().slice(0, 100) || invite.email.split("@")[0]!;
  const passwordHash = await hashPassword(input.password);
  const proven = provesMailbox(invite, proof);
  const { userId, afterCommit } = await getDb().$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: invite.email }, select: { id: true } })) {
      throw conflict("An account with this email already exists; sign in to accept the invite (no password yet: use “Forgot password”)");
    }
    const { id } = await createNewUser(tx, { email: invite.email, name, passwordHash, emailVerified: proven });
    const joined = await joinWorkspace(tx, invite, id, { name, email: invite.email });
    return { userId: id, afterCommit: joined.afterCommit };
  });
  await afterCommit();
  if (!proven) await mailVerificationLink(userId);
  return { userId, email: invite.email, workspaceId: invite.workspaceId };
}

/**
 * The membership an invite grants, taking the invite (single use, even when two tabs accept at once), with
 * its `team.member_joined` event. Call `afterCommit` once the transaction has committed.
 */
async function joinWorkspace(
  tx: Tx,
  invite: UsableInvite,
  userId: string,
  member: { name: string; email: string },
): Promise<{ afterCommit: () => Promise<void> }> {
  const { count } = await tx.invite.updateMany({ where: { id: invite.id, acceptedAt: null, revokedAt: null }, data: { acceptedAt: new Date() } });
  if (!count) throw notFound("Invite");
  const existing = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId: invite.workspaceId, userId } } });
  if (existing) throw conflict("You are already a member of this workspace");
  const folderIds = invite.folderIds.length
    ? (await tx.folder.findMany({ where: { workspaceId: invite.workspaceId, id: { in: invite.folderIds } }, select: { id: true } })).map((f) => f.id)
    : [];
  const membership = await tx.membership.create({ data: { id: newId("mem"), workspaceId: invite.workspaceId, userId, role: invite.role } });
  if (folderIds.length) await tx.membershipFolder.createMany({ data: folderIds.map((folderId) => ({ membershipId: membership.id, folderId })) });
  return emitEventsInTransaction(tx, invite.workspaceId, "team.member_joined", [
    { data: { member: { name: member.name, email: member.email } }, dedupeKey: `team.member_joined:${invite.id}` },
  ]);
}
