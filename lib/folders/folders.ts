import { getDb } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";

export const FOLDER_NAME_MAX = 200;

/** Creates a library folder, optionally inside another folder of the same workspace. */
export async function createFolder(input: { workspaceId: string; name: string; parentId?: string | null }): Promise<{ folderId: string }> {
  const name = input.name.trim();
  if (!name || name.length > FOLDER_NAME_MAX) throw badRequest(`Folder name must be 1 to ${FOLDER_NAME_MAX} characters`);
  const db = getDb();
  const workspace = await db.workspace.findUnique({ where: { id: input.workspaceId }, select: { id: true } });
  if (!workspace) throw notFound("Workspace");
  if (input.parentId) {
    const parent = await db.folder.findFirst({ where: { id: input.parentId, workspaceId: input.workspaceId }, select: { id: true } });
    if (!parent) throw notFound("Parent folder");
  }
  const folder = await db.folder.create({
    data: { id: newId("fld"), workspaceId: input.workspaceId, name, parentId: input.parentId ?? null },
  });
  return { folderId: folder.id };
}
