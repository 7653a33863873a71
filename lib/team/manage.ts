import { authorizePermission } from "@/lib/auth/authorize-permission";
import type { Principal } from "@/lib/auth/principal";
import { revokeKeysCreatedBy } from "@/lib/api-keys/api-keys";
import { revokeGrantsOfUser } from "@/lib/oauth/tokens";
import { revokeSessionsQuery } from "@/lib/session/revocation";
import { getDb } from "@/lib/db/client";
import { AppError, badRequest, conflict, notFound } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { assertMayGrantRole } from "./invites";

export interface MemberSummary {
  userId: string;
  name: string;
  email: string;
  role: Role;
  /** Empty: every folder. */
  folderIds: string[];
  twoFactorEnabled: boolean;
  joinedAt: string;
}

/** Members of the active workspace (any member may see who is on the team). */
export async function listMembers(principal: Principal): Promise<MemberSummary[]> {
  const memberships = await getDb().membership.findMany({
    where: { workspaceId: principal.workspaceId },
    orderBy: { createdAt: "asc" },
    include: { user: { select: { id: true, name: true, email: true, twoFactorEnabled: true } }, folders: { select: { folderId: true } } },
  });
  return memberships.map((m) => ({
    userId: m.user.id,
    name: m.user.name,
    email: m.user.email,
    role: m.role,
    folderIds: m.folders.map((f) => f.folderId),
    twoFactorEnabled: m.user.twoFactorEnabled,
    joinedAt: m.createdAt.toISOString(),
  }));
}

async function membershipOf(principal: Principal, userId: string) {
  const membership = await getDb().membership.findUnique({ where: { workspaceId_userId: { workspaceId: principal.workspaceId, userId } } });
  if (!membership) throw notFound("Member");
  return membership;
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>["$transaction"]>[0]>[0];

/**
 * Inside the transaction that demotes or removes an owner: the workspace's row is locked first, so two owners
 * demoting or removing each other at once take turns, and the second finds the first's change.
 */
async function assertNotLastOwner(tx: Tx, workspaceId: string, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
  const owners = await tx.membership.findMany({ where: { workspaceId, role: "owner" }, select: { userId: true } });
  if (!owners.some((o) => o.userId !== userId)) throw conflict("A workspace needs at least one owner; make someone else an owner first");
}

const onlyOwnersTouchOwners = (what: string) => new AppError("forbidden", `Only an owner can ${what} an owner`);

/** Changes a member's role and folder access (owners and admins; only owners touch owners). */
export async function updateMember(principal: Principal, userId: string, input: { role: Role; folderIds: string[] }): Promise<void> {
  authorizePermission(principal, "team.manage");
  const membership = await membershipOf(principal, userId);
  assertMayGrantRole(principal, input.role);
  if (membership.role === "owner" && principal.role !== "owner") throw onlyOwnersTouchOwners("change");
  const folderIds = [...new Set(input.folderIds)];
  const db = getDb();
  if (folderIds.length) {
    const found = await db.folder.count({ where: { workspaceId: principal.workspaceId, id: { in: folderIds } } });
    if (found !== folderIds.length) throw badRequest("Every folder must be a folder of this workspace");
  }
  await db.$transaction(async (tx) => {
    if (membership.role === "owner" && input.role !== "owner") await assertNotLastOwner(tx, principal.workspaceId, userId);
    await tx.membership.update({ where: { id: membership.id }, data: { role: input.role } });
    await tx.membershipFolder.deleteMany({ where: { membershipId: membership.id } });
    await tx.membershipFolder.createMany({ data: folderIds.map((folderId) => ({ membershipId: membership.id, folderId })) });
  });
}

/**
 * Removes a member: their API keys and the apps they connected to this workspace (OAuth grants) are revoked, so
 * none works again should they rejoin, and their open dashboard sessions end (they sign in again to whatever
 * workspaces they still have). They are taken off the workspace's tasks: a task kept naming someone who left (with
 * their email), and the dashboard, which cannot offer a non-member, could no longer change its assignees.
 */
export async function removeMember(principal: Principal, userId: string): Promise<void> {
  authorizePermission(principal, "team.manage");
  const membership = await membershipOf(principal, userId);
  if (membership.role === "owner" && principal.role !== "owner") throw onlyOwnersTouchOwners("remove");
  await getDb().$transaction(async (tx) => {
    if (membership.role === "owner") await assertNotLastOwner(tx, principal.workspaceId, userId);
    await tx.membership.delete({ where: { id: membership.id } });
    await tx.taskAssignee.deleteMany({ where: { userId, task: { workspaceId: principal.workspaceId } } });
    await revokeKeysCreatedBy(tx, userId, principal.workspaceId);
    await revokeGrantsOfUser(tx, userId, principal.workspaceId);
    await revokeSessionsQuery(userId, tx);
  });
}

/** The workspace's folders as a flat list (id, name, parent), for folder pickers and trees. */
export async function listWorkspaceFolders(principal: Principal): Promise<{ id: string; name: string; parentId: string | null }[]> {
  return getDb().folder.findMany({
    where: { workspaceId: principal.workspaceId },
    orderBy: { name: "asc" },
    select: { id: true, name: true, parentId: true },
  });
}
