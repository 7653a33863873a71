import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { folderScope } from "@/lib/folders/access";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { CREATIVE_INCLUDE, CREATIVE_SELECT, toCreative, type Creative } from "./creative-schema";

export interface ListCreativesInput {
  limit: number;
  cursor?: string;
}

/** The creatives the principal may see, newest first, one page at a time. */
export async function listCreatives(principal: Principal, input: ListCreativesInput): Promise<{ creatives: Creative[]; nextCursor: string | null }> {
  const rows = await getDb().creative.findMany({
    where: { workspaceId: principal.workspaceId, ...(await folderScope(principal)), ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
    select: CREATIVE_SELECT,
  });
  const page = toPage(rows, input.limit);
  return { creatives: page.items.map(toCreative), nextCursor: page.nextCursor };
}

/** One creative the principal may see, or null (another workspace's, another folder's, or none). */
export async function findVisibleCreative(principal: Principal, creativeId: string) {
  return getDb().creative.findFirst({
    where: { id: creativeId, workspaceId: principal.workspaceId, ...(await folderScope(principal)) },
    include: CREATIVE_INCLUDE,
  });
}

/** Whether the principal may see the creative (a cheap check for routes beneath it). */
export async function isCreativeVisible(principal: Principal, creativeId: string): Promise<boolean> {
  const row = await getDb().creative.findFirst({
    where: { id: creativeId, workspaceId: principal.workspaceId, ...(await folderScope(principal)) },
    select: { id: true },
  });
  return row !== null;
}

/** One creative as the resource; null when the principal cannot see it. */
export async function getCreative(principal: Principal, creativeId: string): Promise<Creative | null> {
  const row = await findVisibleCreative(principal, creativeId);
  return row ? toCreative(row) : null;
}
