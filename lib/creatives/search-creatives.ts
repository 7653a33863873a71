import { REVIEW_STATUSES } from "@/lib/review/schemas";
import { z } from "zod";
import { isoDateTime } from "@/lib/iso-time";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { badRequest } from "@/lib/errors";
import { folderScope } from "@/lib/folders/access";
import type { Prisma } from "@/lib/generated/prisma/client";
import { afterCursor, cursorTime, encodeCursor, NEWEST_FIRST } from "@/lib/pagination/cursor";
import { CREATIVE_SELECT } from "./creative-schema";

export const CREATIVE_SORTS = ["newest", "oldest", "name"] as const;
export const CREATIVE_ASPECTS = ["square", "portrait", "landscape"] as const;
export type CreativeSort = (typeof CREATIVE_SORTS)[number];

/** The library's optional filters and sort (list_creatives and the dashboard's library grid). */
export const CreativeFilterFields = {
  search: z.string().trim().min(1).max(200).optional().describe("Only creatives whose file name contains this text (any case)"),
  kind: z.enum(["image", "video"]).optional().describe("Only images or only videos"),
  aspect: z
    .enum(CREATIVE_ASPECTS)
    .optional()
    .describe("Only square (width = height), portrait (taller) or landscape (wider) creatives; ones whose size is not known yet are left out"),
  createdAfter: isoDateTime().optional().describe("Only creatives added at or after this time (ISO 8601)"),
  createdBefore: isoDateTime().optional().describe("Only creatives added before this time (ISO 8601)"),
  uploaderId: z.string().min(1).max(100).optional().describe("Only creatives uploaded by this user id"),
  folderId: z.string().min(1).max(100).nullable().optional().describe("Only this folder and its subfolders; null: only the library root"),
  status: z.enum(["importing", "ready", "failed"]).optional().describe("Only creatives in this status"),
  reviewStatus: z.enum(REVIEW_STATUSES).optional().describe("Only creatives in this review status (none: never reviewed)"),
  sort: z.enum(CREATIVE_SORTS).optional().describe("newest (default), oldest, or name (A to Z)"),
};
const FiltersSchema = z.object(CreativeFilterFields);
export type CreativeFilters = z.infer<typeof FiltersSchema>;

/** Whether any filter (or a sort other than the default) is set. */
export const hasFilters = (f: CreativeFilters) => Object.values(f).some((v) => v !== undefined);

type SortValue = string;
/** Cursors of the non-default sorts carry the sort, so a cursor cannot be replayed under another order. */
function encodeSortCursor(sort: CreativeSort, value: SortValue, id: string): string {
  return Buffer.from(JSON.stringify([sort, value, id])).toString("base64url");
}
function decodeSortCursor(sort: CreativeSort, cursor: string): { value: SortValue; id: string } {
  try {
    const [s, value, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string, string];
    if (s !== sort || typeof value !== "string" || typeof id !== "string" || !id) throw new Error("bad cursor");
    if (sort === "oldest" && !cursorTime(value)) throw new Error("bad cursor");
    return { value, id };
  } catch {
    throw badRequest("Invalid cursor: pass back the nextCursor value of a previous page with the same sort");
  }
}

function orderAndCursor(
  sort: CreativeSort,
  cursor: string | undefined,
): { orderBy: Prisma.CreativeOrderByWithRelationInput[]; after: Prisma.CreativeWhereInput } {
  if (sort === "newest") return { orderBy: NEWEST_FIRST, after: afterCursor(cursor) };
  if (sort === "oldest") {
    const c = cursor ? decodeSortCursor(sort, cursor) : null;
    const at = c ? new Date(c.value) : null;
    return {
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      after: at ? { OR: [{ createdAt: { gt: at } }, { createdAt: at, id: { gt: c!.id } }] } : {},
    };
  }
  const c = cursor ? decodeSortCursor(sort, cursor) : null;
  return {
    orderBy: [{ fileName: "asc" }, { id: "asc" }],
    after: c ? { OR: [{ fileName: { gt: c.value } }, { fileName: c.value, id: { gt: c.id } }] } : {},
  };
}

/** A folder and every folder beneath it. */
async function folderSubtree(workspaceId: string, rootId: string): Promise<string[]> {
  const all = await getDb().folder.findMany({ where: { workspaceId }, select: { id: true, parentId: true } });
  const ids = new Set([rootId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of all) if (f.parentId && ids.has(f.parentId) && !ids.has(f.id)) ids.add(f.id), (grew = true);
  }
  return [...ids];
}

/** The `where` of the principal's visible creatives narrowed by the filters (no cursor). */
export async function creativeWhere(principal: Principal, input: CreativeFilters): Promise<Prisma.CreativeWhereInput> {
  const db = getDb();
  const and: Prisma.CreativeWhereInput[] = [await folderScope(principal)];
  if (input.search) and.push({ fileName: { contains: input.search, mode: "insensitive" } });
  if (input.kind) and.push({ kind: input.kind });
  if (input.status) and.push({ status: input.status });
  if (input.createdAfter) and.push({ createdAt: { gte: new Date(input.createdAfter) } });
  if (input.createdBefore) and.push({ createdAt: { lt: new Date(input.createdBefore) } });
  if (input.uploaderId) and.push({ createdById: input.uploaderId });
  if (input.reviewStatus === "none") and.push({ OR: [{ review: null }, { review: { status: "none" } }] });
  else if (input.reviewStatus) and.push({ review: { status: input.reviewStatus } });
  if (input.folderId === null) and.push({ folderId: null });
  else if (input.folderId) and.push({ folderId: { in: await folderSubtree(principal.workspaceId, input.folderId) } });
  if (input.aspect) {
    const height = db.creative.fields.height;
    and.push({ width: input.aspect === "square" ? { equals: height } : input.aspect === "landscape" ? { gt: height } : { lt: height } });
    and.push({ width: { not: null } }, { height: { not: null } });
  }
  return { workspaceId: principal.workspaceId, AND: and };
}

/**
 * One page of the creatives the principal may see, filtered and sorted in the database (so a
 * library of any size is searchable), with the next page's cursor.
 */
export async function searchCreativeRows(principal: Principal, input: CreativeFilters & { limit: number; cursor?: string }) {
  const sort = input.sort ?? "newest";
  const { orderBy, after } = orderAndCursor(sort, input.cursor);
  const where = await creativeWhere(principal, input);
  const rows = await getDb().creative.findMany({
    where: { AND: [where, after] },
    orderBy,
    take: input.limit + 1,
    // The resource's columns, and what the library grid adds to it (folder, size, duplicate of).
    select: { ...CREATIVE_SELECT, folderId: true, sizeBytes: true, contentSha256: true },
  });
  const items = rows.slice(0, input.limit);
  const last = items.at(-1);
  const nextCursor =
    rows.length > input.limit && last
      ? sort === "newest"
        ? encodeCursor(last)
        : encodeSortCursor(sort, sort === "oldest" ? last.createdAt.toISOString() : last.fileName, last.id)
      : null;
  return { rows: items, nextCursor };
}
