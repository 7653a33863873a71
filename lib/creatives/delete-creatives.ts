import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { folderScope } from "@/lib/folders/access";
import { Prisma } from "@/lib/generated/prisma/client";
import { discardStoredFiles } from "@/lib/storage";
import { thumbnailKeysOf } from "./renditions";

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
  // Earlier versions' files (lib/review/versions.ts) go with the creative.
  const versions = await db.creativeVersion.findMany({
    where: { creativeId: { in: visible.map((c) => c.id) } },
    select: { creativeId: true, storageKey: true, previewStorageKey: true },
  });
  // RETURNING tells which rows this request removed, so a concurrent delete is never counted twice.
  const removed = await db.$queryRaw<{ id: string; storageKey: string; previewStorageKey: string | null }[]>`
    DELETE FROM "creatives"
    WHERE "workspaceId" = ${principal.workspaceId} AND "id" IN (${Prisma.join(visible.map((c) => c.id))})
    RETURNING "id", "storageKey", "previewStorageKey"`;
  const removedIds = new Set(removed.map((r) => r.id));
  const workspaceId = principal.workspaceId;
  const keys = [
    ...removed.flatMap((r) => [r.storageKey, r.previewStorageKey, ...thumbnailKeysOf({ id: r.id, workspaceId, storageKey: r.storageKey })]),
    ...versions
      .filter((v) => removedIds.has(v.creativeId))
      .flatMap((v) => [v.storageKey, v.previewStorageKey, ...thumbnailKeysOf({ id: v.creativeId, workspaceId, storageKey: v.storageKey })]),
  ];
  await discardStoredFiles([...new Set(keys.filter((k): k is string => Boolean(k)))], "deleted creative");
  return { deleted: removed.length };
}
