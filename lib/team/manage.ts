import { authorizePermission } from "@/lib/auth/authorize-permission";
import type { Principal } from "@/lib/auth/principal";
import { revokeSessionsQuery } from "@/lib/session/revocation";
import { getDb } from "@/lib/db/client";
import { badRequest, conflict, notFound } from "@/lib/errors";
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

async function assertNotLastOwner(workspaceId: string, userId: string): Promise<void> {
  const owners = await getDb().membership.findMany({ where: { workspaceId, role: "owner" }, select: { userId: true } });
  if (owners.length === 1 && owners[0]!.userId === userId) throw conflict("A workspace needs at least one owner; make someone else an owner first");
}

/** Changes a member's role and folder access (owners and admins; only owners touch owners). */
export async function updateMember(principal: Principal, userId: string, input: { role: Role; folderIds: string[] }): Promise<void> {
  authorizePermission(principal, "team.manage");
  const membership = await membershipOf(principal, userId);
  assertMayGrantRole(principal, input.role);
  if (membership.role === "owner" && principal.role !== "owner") throw badRequest("Only an owner can change another owner");
  if (membership.role === "owner" && input.role !== "owner") await assertNotLastOwner(principal.workspaceId, userId);
  const folderIds = [...new Set(input.folderIds)];
  const db = getDb();
  if (folderIds.length) {
    const found = await db.folder.count({ where: { workspaceId: principal.workspaceId, id: { in: folderIds } } });
    if (found !== folderIds.length) throw badRequest("Every folder must be a folder of this workspace");
  }
  await db.$transaction([
    db.membership.update({ where: { id: membership.id }, data: { role: input.role } }),
    db.membershipFolder.deleteMany({ where: { membershipId: membership.id } }),
    db.membershipFolder.createMany({ data: folderIds.map((folderId) => ({ membershipId: membership.id, folderId })) }),
  ]);
}

/** Removes a member (their keys stop working: a key acts only for a current member). */
export async function removeMember(principal: Principal, userId: string): Promise<void> {
  authorizePermission(principal, "team.manage");
  const membership = await membershipOf(principal, userId);
  if (membership.role === "owner" && principal.role !== "owner") throw badRequest("Only an owner can remove an owner");
  if (membership.role === "owner") await assertNotLastOwner(principal.workspaceId, userId);
  // Their open dashboard sessions end with the membership (they sign in again to whatever workspaces they still have).
  const db = getDb();
  await db.$transaction([db.membership.delete({ where: { id: membership.id } }), revokeSessionsQuery(userId)]);
}

/** The workspace's folders as a flat list (id, name, parent), for folder pickers and trees. */
export async function listWorkspaceFolders(principal: Principal): Promise<{ id: string; name: string; parentId: string | null }[]> {
  return getDb().folder.findMany({
    where: { workspaceId: principal.workspaceId },
    orderBy: { name: "asc" },
    select: { id: true, name: true, parentId: true },
  });
}
