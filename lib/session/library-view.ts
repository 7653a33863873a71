import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { authorize } from "@/lib/auth/authorize";
import { forbidden, notFound } from "@/lib/errors";
import { canUseFolder, visibleFolderIds } from "@/lib/folders/access";
import { createFolder } from "@/lib/folders/folders";

export interface LibraryFolder {
  id: string;
  name: string;
  parentId: string | null;
}

/** The folders the principal may browse and upload into, by name; a scoped member's top folders appear as roots. */
export async function listVisibleFolders(principal: Principal): Promise<LibraryFolder[]> {
  const visible = await visibleFolderIds(principal);
  const folders = await getDb().folder.findMany({
    where: { workspaceId: principal.workspaceId, ...(visible ? { id: { in: visible } } : {}) },
    orderBy: { name: "asc" },
    select: { id: true, name: true, parentId: true },
  });
  const visibleIds = new Set(folders.map((f) => f.id));
  return folders.map((f) => ({ ...f, parentId: f.parentId && visibleIds.has(f.parentId) ? f.parentId : null }));
}

/** Creates a library folder as the principal (`folders.write`); folder-scoped members only inside their folders. */
export async function createLibraryFolder(principal: Principal, input: { name: string; parentId: string | null }): Promise<LibraryFolder> {
  authorize(principal, "folders.write");
  if (!(await canUseFolder(principal, input.parentId))) {
    throw input.parentId ? notFound("Folder") : forbidden("Your access is limited to some folders: create the new folder inside one of them");
  }
  const { folderId } = await createFolder({ workspaceId: principal.workspaceId, name: input.name, parentId: input.parentId });
  return { id: folderId, name: input.name.trim(), parentId: input.parentId };
}
