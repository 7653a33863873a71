import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { visibleFolderIds } from "./access";
import { createFolder as insertFolder, FOLDER_NAME_MAX } from "./folders";

export const FolderSchema = z
  .object({
    id: z.string().describe("Folder id"),
    name: z.string().describe("Folder name"),
    parentId: z.string().nullable().describe("Parent folder id; null for a folder at the library root"),
    createdAt: z.string().describe("Creation time (ISO 8601, UTC)"),
  })
  .meta({ id: "Folder" });

export type Folder = z.infer<typeof FolderSchema>;

export const FolderNameSchema = z.string().trim().min(1).max(FOLDER_NAME_MAX).describe(`Folder name, 1 to ${FOLDER_NAME_MAX} characters`);

function toFolder(row: { id: string; name: string; parentId: string | null; createdAt: Date }): Folder {
  return { id: row.id, name: row.name, parentId: row.parentId, createdAt: row.createdAt.toISOString() };
}

/** A folder the principal can see, or 404 (foreign and hidden folders look the same). */
async function visibleFolder(principal: Principal, id: string) {
  const visible = await visibleFolderIds(principal);
  const row = visible === null || visible.includes(id) ? await getDb().folder.findFirst({ where: { id, workspaceId: principal.workspaceId } }) : null;
  if (!row) throw notFound("Folder");
  return row;
}

/** Lists the library folders the principal can see, newest first; `parentId` narrows to one level (null: the root). */
export async function listFolders(
  principal: Principal,
  input: { parentId?: string | null; limit: number; cursor?: string },
): Promise<{ folders: Folder[]; nextCursor: string | null }> {
  const visible = await visibleFolderIds(principal);
  const rows = await getDb().folder.findMany({
    where: {
      workspaceId: principal.workspaceId,
      ...(visible === null ? {} : { id: { in: visible } }),
      ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
      ...afterCursor(input.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { folders: page.items.map(toFolder), nextCursor: page.nextCursor };
}

/** Creates a folder at the root or inside a visible folder; folder-scoped members create only inside their folders. */
export async function createLibraryFolder(principal: Principal, input: { name: string; parentId?: string | null }): Promise<{ folder: Folder }> {
  const parentId = input.parentId ?? null;
  if (parentId) await visibleFolder(principal, parentId);
  else if (principal.folderIds)
    throw new AppError("forbidden", "Your folder access does not include the library root; create the folder inside one of your folders");
  const { folderId } = await insertFolder({ workspaceId: principal.workspaceId, name: input.name, parentId });
  return { folder: toFolder(await visibleFolder(principal, folderId)) };
}

/** Renames a visible folder. */
export async function renameFolder(principal: Principal, input: { id: string; name: string }): Promise<{ folder: Folder }> {
  await visibleFolder(principal, input.id);
  const row = await getDb().folder.update({ where: { id: input.id }, data: { name: input.name.trim() } });
  return { folder: toFolder(row) };
}

/**
 * Deletes an empty folder and its (empty) subfolders. Refused with 409 while the folder or a
 * subfolder holds creatives or uploads, or grants a member their folder access (deleting
 * that would widen the member's view to the whole library). Uploads still streaming in (not yet
 * recorded) and import runs or watched folders filing into it do not hold it: what they file later
 * lands at the library root (the folder foreign keys are ON DELETE SET NULL). Review links sharing one of
 * the folders go with it (ON DELETE CASCADE): they would share nothing.
 */
export async function deleteFolder(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  await visibleFolder(principal, input.id);
  const db = getDb();
  const all = await db.folder.findMany({ where: { workspaceId: principal.workspaceId }, select: { id: true, parentId: true } });
  const subtree = new Set([input.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of all) if (f.parentId && subtree.has(f.parentId) && !subtree.has(f.id)) subtree.add(f.id), (grew = true);
  }
  const ids = [...subtree];
  return db.$transaction(async (tx) => {
    // Locked before counting: an upload being recorded into one of them (it holds the folder's key share) commits
    // first and is counted (409), and one recorded after the delete finds the folder gone (lib/uploads/accept-uploads.ts).
    await tx.$queryRawUnsafe(`SELECT id FROM folders WHERE id = ANY($1::text[]) FOR UPDATE`, ids);
    const creatives = await tx.creative.count({ where: { workspaceId: principal.workspaceId, folderId: { in: ids } } });
    const uploads = await tx.upload.count({ where: { workspaceId: principal.workspaceId, folderId: { in: ids } } });
    const grants = await tx.membershipFolder.count({ where: { folderId: { in: ids } } });
    if (creatives || uploads) throw new AppError("conflict", `The folder is not empty (${creatives} creatives, ${uploads} uploads); move or delete them first`);
    if (grants) throw new AppError("conflict", "The folder grants a member their folder access; change that member's access first");
    await tx.folder.deleteMany({ where: { workspaceId: principal.workspaceId, id: { in: ids } } });
    return { ok: true as const };
  });
}
