import type { Principal } from "@/lib/auth/principal";
import { isCreativeVisible } from "@/lib/creatives/list-creatives";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { toCopy, type Copy, type CopyInput } from "./copy-schema";

/** The creative, if the principal may see it; otherwise a 404 that does not tell foreign from missing. */
async function requireCreative(principal: Principal, creativeId: string): Promise<void> {
  if (!(await isCreativeVisible(principal, creativeId))) throw notFound("Creative");
}

/** A creative's copy variants, newest first, one page at a time. 404 when the creative is not visible. */
export async function listCopies(
  principal: Principal,
  input: { creativeId: string; limit: number; cursor?: string },
): Promise<{ copies: Copy[]; nextCursor: string | null }> {
  await requireCreative(principal, input.creativeId);
  const rows = await getDb().copyVariant.findMany({
    where: { creativeId: input.creativeId, workspaceId: principal.workspaceId, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { copies: page.items.map(toCopy), nextCursor: page.nextCursor };
}

/**
 * Creates a copy variant on the creative, or with `id` updates that variant (fields left out
 * stay as they are; null clears one). 404 when the creative is not visible or has no
 * variant with that id.
 */
export async function saveCopy(principal: Principal, input: CopyInput & { creativeId: string }): Promise<{ id: string; created: boolean }> {
  await requireCreative(principal, input.creativeId);
  const db = getDb();
  const fields = {
    ...(input.headline !== undefined ? { headline: input.headline } : {}),
    ...(input.primaryText !== undefined ? { primaryText: input.primaryText } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.label !== undefined ? { label: input.label } : {}),
  };
  if (input.id) {
    const where = { id: input.id, creativeId: input.creativeId, workspaceId: principal.workspaceId };
    // Prisma skips an update with nothing to set (count 0), so an empty update only checks existence.
    const found = Object.keys(fields).length
      ? (await db.copyVariant.updateMany({ where, data: fields })).count > 0
      : (await db.copyVariant.findFirst({ where, select: { id: true } })) !== null;
    if (!found) throw notFound("Copy variant");
    return { id: input.id, created: false };
  }
  const id = newId("copy");
  try {
    await db.copyVariant.create({ data: { id, workspaceId: principal.workspaceId, creativeId: input.creativeId, ...fields } });
  } catch (err) {
    // The creative was deleted between the check and the insert.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2003") throw notFound("Creative");
    throw err;
  }
  return { id, created: true };
}

/** Deletes one copy variant of the creative. 404 when the creative is not visible or has no such variant. */
export async function deleteCopy(principal: Principal, input: { creativeId: string; id: string }): Promise<{ ok: true }> {
  await requireCreative(principal, input.creativeId);
  const { count } = await getDb().copyVariant.deleteMany({
    where: { id: input.id, creativeId: input.creativeId, workspaceId: principal.workspaceId },
  });
  if (!count) throw notFound("Copy variant");
  return { ok: true };
}
