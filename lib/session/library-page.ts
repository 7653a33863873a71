import type { Principal } from "@/lib/auth/principal";
import { toCreative, type Creative } from "@/lib/creatives/creative-schema";
import { findDuplicates, type DuplicateOf } from "@/lib/creatives/duplicates";
import { creativeWhere, searchCreativeRows, type CreativeFilters } from "@/lib/creatives/search-creatives";
import { getDb } from "@/lib/db/client";

/** A creative as the library grid shows it: the resource plus its folder, size and what it duplicates. */
export type LibraryItem = Creative & { folderId: string | null; sizeBytes: number; duplicateOf: DuplicateOf | null };

/** Tiles per page of the grid's infinite scroll. */
export const LIBRARY_PAGE_SIZE = 60;

/** One page of the library grid, filtered and sorted in the database; `total` only on the first page. */
export async function loadLibraryPage(
  principal: Principal,
  input: CreativeFilters & { cursor?: string },
): Promise<{ items: LibraryItem[]; nextCursor: string | null; total: number | null }> {
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
  return getDb().creative.count({ where: await creativeWhere(principal, filters) });
}

/** The workspace's members, for the uploader filter. */
export async function listUploaders(principal: Principal): Promise<{ id: string; name: string }[]> {
  const members = await getDb().membership.findMany({
    where: { workspaceId: principal.workspaceId },
    select: { user: { select: { id: true, name: true, email: true } } },
  });
  return members.map((m) => ({ id: m.user.id, name: m.user.name || m.user.email })).sort((a, b) => a.name.localeCompare(b.name));
}
