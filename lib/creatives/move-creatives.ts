import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { canUseFolder, folderScope } from "@/lib/folders/access";

export const MOVE_CREATIVES_MAX = 200;

/**
 * Files creatives into a folder (null: the library root). The target must be a folder the
 * principal may use (a folder-scoped member cannot move to the root); ids that do not exist or
 * that the principal cannot see are skipped. Returns how many were moved.
 */
export async function moveCreatives(principal: Principal, input: { ids: string[]; folderId: string | null }): Promise<{ moved: number }> {
  const db = getDb();
  const folderId = input.folderId;
  if (folderId && !(await db.folder.findFirst({ where: { id: folderId, workspaceId: principal.workspaceId }, select: { id: true } }))) throw notFound("Folder");
  if (!(await canUseFolder(principal, folderId))) {
    if (folderId) throw notFound("Folder");
    throw new AppError("forbidden", "Your folder access does not include the library root; move the creatives into one of your folders");
  }
  const { count } = await db.creative.updateMany({
    where: { id: { in: [...new Set(input.ids)] }, workspaceId: principal.workspaceId, ...(await folderScope(principal)) },
    data: { folderId },
  });
  return { moved: count };
}
