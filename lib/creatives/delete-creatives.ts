import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { folderScope } from "@/lib/folders/access";
import { Prisma } from "@/lib/generated/prisma/client";
import { discardStoredFiles } from "@/lib/storage";

export const DELETE_CREATIVES_MAX = 200;

/**
 * Deletes the given creatives with their copy variants; ids that do not exist or that the
 * principal cannot see are skipped. Media files go after the database commit, so a failure
 * never leaves a creative whose file is gone. Returns how many were really deleted.
 */
export async function deleteCreatives(principal: Principal, input: { ids: string[] }): Promise<{ deleted: number }> {
  const ids = [...new Set(input.ids)];
  const db = getDb();
  const visible = await db.creative.findMany({
    where: { id: { in: ids }, workspaceId: principal.workspaceId, ...(await folderScope(principal)) },
    select: { id: true },
  });
  if (!visible.length) return { deleted: 0 };
  // RETURNING tells which rows this request removed, so a concurrent delete is never counted twice.
  const removed = await db.$queryRaw<{ storageKey: string; previewStorageKey: string | null }[]>`
    DELETE FROM "creatives"
    WHERE "workspaceId" = ${principal.workspaceId} AND "id" IN (${Prisma.join(visible.map((c) => c.id))})
    RETURNING "storageKey", "previewStorageKey"`;
  await discardStoredFiles(
    removed.flatMap((r) => [r.storageKey, r.previewStorageKey]).filter((k): k is string => Boolean(k)),
    "deleted creative",
  );
  return { deleted: removed.length };
}
