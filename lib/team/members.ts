import { getDb } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { ensureUser } from "./users";

export interface AddMemberInput {
  workspaceId: string;
  email: string;
  role: Role;
  /** Limits the member to these folders' library items and uploads; empty or absent: every folder. */
  folderIds?: string[];
}

/** Adds (or updates) a member of a workspace, creating the user when new. */
export async function addMember(input: AddMemberInput): Promise<{ userId: string; membershipId: string }> {
  const db = getDb();
  const folderIds = [...new Set(input.folderIds ?? [])];
  return db.$transaction(async (tx) => {
    const workspace = await tx.workspace.findUnique({ where: { id: input.workspaceId } });
    if (!workspace) throw notFound("Workspace");
    if (folderIds.length) {
      const found = await tx.folder.count({ where: { workspaceId: input.workspaceId, id: { in: folderIds } } });
      if (found !== folderIds.length) throw badRequest("Every folder id must name a folder of this workspace");
    }
    const user = await ensureUser(tx, { email: input.email });
    const membership = await tx.membership.upsert({
      where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: user.id } },
      create: { id: newId("mem"), workspaceId: input.workspaceId, userId: user.id, role: input.role },
      update: { role: input.role },
    });
    await tx.membershipFolder.deleteMany({ where: { membershipId: membership.id } });
    if (folderIds.length) {
      await tx.membershipFolder.createMany({ data: folderIds.map((folderId) => ({ membershipId: membership.id, folderId })) });
    }
    return { userId: user.id, membershipId: membership.id };
  });
}
