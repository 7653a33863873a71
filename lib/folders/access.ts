import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";

/**
 * The folders a folder-scoped member may see: their folders and everything
 * beneath them. null means the principal sees every folder and the root.
 */
export async function visibleFolderIds(principal: Principal): Promise<string[] | null> {
  if (!principal.folderIds) return null;
  const folders = await getDb().folder.findMany({
    where: { workspaceId: principal.workspaceId },
    select: { id: true, parentId: true },
  });
  const children = new Map<string, string[]>();
  for (const f of folders) if (f.parentId) children.set(f.parentId, [...(children.get(f.parentId) ?? []), f.id]);
  const visible = new Set<string>();
  const queue = principal.folderIds.filter((id) => folders.some((f) => f.id === id));
  while (queue.length) {
    const id = queue.pop()!;
    if (visible.has(id)) continue;
    visible.add(id);
    queue.push(...(children.get(id) ?? []));
  }
  return [...visible];
}

/**
 * Prisma `where` fragment limiting rows with a `folderId` column to what the
 * principal may see. Every library and upload query goes through it.
 */
export async function folderScope(principal: Principal): Promise<{ folderId?: { in: string[] } }> {
  const ids = await visibleFolderIds(principal);
  return ids === null ? {} : { folderId: { in: ids } };
}

/** Whether the principal may file something into (or read) this folder; null is the library root. */
export async function canUseFolder(principal: Principal, folderId: string | null): Promise<boolean> {
  const ids = await visibleFolderIds(principal);
  if (ids === null) return true;
  return folderId !== null && ids.includes(folderId);
}
