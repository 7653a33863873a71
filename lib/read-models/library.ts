import { z } from "zod";
import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { toCreative, type Creative } from "@/lib/creatives/creative-schema";
import { findDuplicates, type DuplicateOf } from "@/lib/creatives/duplicates";
import { CreativeFilterFields, creativeWhere, searchCreativeRows, type CreativeFilters } from "@/lib/creatives/search-creatives";
import { getDb } from "@/lib/db/client";
import { visibleFolderIds } from "@/lib/folders/access";

/**
 * What the library pages read: the grid, its counts and filters, the folder tree. Each read
 * authorizes as the matching tool does (list_creatives, list_folders) and sees only the
 * principal's folders (lib/folders/access.ts), so a page shows what the API would answer.
 */

export type { CreativeFilters };

/** What a page of the library grid is asked with: the list's filters and sort, and where the page starts. */
export const LibraryPageInput = z.strictObject({ ...CreativeFilterFields, cursor: z.string().max(1000).optional() });

/** A creative as the library grid shows it: the resource plus its folder, size and what it duplicates. */
export type LibraryItem = Creative & { folderId: string | null; sizeBytes: number; duplicateOf: DuplicateOf | null };

/** Tiles per page of the grid's infinite scroll. */
export const LIBRARY_PAGE_SIZE = 60;

/** One page of the library grid, filtered and sorted in the database; `total` only on the first page. */
export async function loadLibraryPage(
  principal: Principal,
  input: CreativeFilters & { cursor?: string },
): Promise<{ items: LibraryItem[]; nextCursor: string | null; total: number | null }> {
  authorize(principal, "creatives.list");
  const { rows, nextCursor } = await searchCreativeRows(principal, { ...input, limit: LIBRARY_PAGE_SIZE });
  // A first page that holds everything is its own count (most searches): one scan instead of two.
  const total = input.cursor ? null : nextCursor ? await countCreatives(principal, input) : rows.length;
  const duplicates = await findDuplicates(principal, rows);
  return {
    items: rows.map((r) => ({ ...toCreative(r), folderId: r.folderId, sizeBytes: r.sizeBytes, duplicateOf: duplicates.get(r.id) ?? null })),
    nextCursor,
    total,
  };
}

/** How many creatives the principal may see that match the filters. */
export async function countCreatives(principal: Principal, filters: CreativeFilters = {}): Promise<number> {
  authorize(principal, "creatives.list");
  return getDb().creative.count({ where: await creativeWhere(principal, filters) });
}

/** The workspace's members, for the uploader filter. */
export async function listUploaders(principal: Principal): Promise<{ id: string; name: string }[]> {
  authorize(principal, "creatives.list");
  const members = await getDb().membership.findMany({
    where: { workspaceId: principal.workspaceId },
    select: { user: { select: { id: true, name: true, email: true } } },
  });
  return members.map((m) => ({ id: m.user.id, name: m.user.name || m.user.email })).sort((a, b) => a.name.localeCompare(b.name));
}

export interface LibraryFolder {
  id: string;
  name: string;
  parentId: string | null;
}

/** The folders the principal may browse and upload into, by name; a scoped member's top folders appear as roots. */
export async function listVisibleFolders(principal: Principal): Promise<LibraryFolder[]> {
  authorize(principal, "folders.list");
  const visible = await visibleFolderIds(principal);
  const folders = await getDb().folder.findMany({
    where: { workspaceId: principal.workspaceId, ...(visible ? { id: { in: visible } } : {}) },
    orderBy: { name: "asc" },
    select: { id: true, name: true, parentId: true },
  });
  const visibleIds = new Set(folders.map((f) => f.id));
  return folders.map((f) => ({ ...f, parentId: f.parentId && visibleIds.has(f.parentId) ? f.parentId : null }));
}
