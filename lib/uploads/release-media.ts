import { getDb } from "@/lib/db/client";
import { getStorage } from "@/lib/storage";
import { log } from "@/lib/log";

/**
 * Deletes a stored file once nothing references it any more: no upload, no creative
 * (original or preview) and no creative version of the workspace uses the key (a
 * creative's first version keeps its upload's key). Call it after
 * deleting an upload or a creative; a failure to delete is logged, not thrown,
 * since the row is already gone.
 */
export async function releaseStoredMedia(workspaceId: string, storageKey: string): Promise<boolean> {
  const db = getDb();
  const [uploads, creatives, versions] = await Promise.all([
    db.upload.count({ where: { workspaceId, storageKey } }),
    db.creative.count({ where: { workspaceId, OR: [{ storageKey }, { previewStorageKey: storageKey }] } }),
    db.creativeVersion.count({ where: { workspaceId, OR: [{ storageKey }, { previewStorageKey: storageKey }] } }),
  ]);
  if (uploads + creatives + versions > 0) return false;
  try {
    await getStorage().delete(storageKey);
    return true;
  } catch (err) {
    log.error("could not delete stored media", { component: "uploads", storageKey, err });
    return false;
  }
}
