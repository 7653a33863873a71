import { defineService } from "@/lib/services";
import { LocalMediaStorage } from "./local";
import type { MediaStorage } from "./media-storage";
import { S3MediaStorage } from "./s3";
import { log } from "@/lib/log";

export type { ByteRange, MediaStorage, ReadOptions, StoredObjectInfo, StoredObjectStream } from "./media-storage";
export { assertValidKey } from "./media-storage";
export { digestFile, type DigestAlgorithm, type FileDigest } from "./file-digest";
export { LocalMediaStorage } from "./local";
export { S3MediaStorage } from "./s3";

/** The process's media storage, chosen by STORAGE_DRIVER (local directory under DATA_DIR, or S3). */
export const getStorage = defineService(
  "storage",
  ({ config: { storage } }): MediaStorage => (storage.driver === "s3" ? new S3MediaStorage(storage) : new LocalMediaStorage(storage.dir)),
);

/** Storage key of an upload's original bytes. Creatives made from it share the key. */
export function uploadStorageKey(workspaceId: string, uploadId: string): string {
  return `${workspaceId}/uploads/${uploadId}`;
}

/** Storage key of a creative's derived file (e.g. `preview.mp4`). */
export function creativeDerivedKey(workspaceId: string, creativeId: string, name: string): string {
  return `${workspaceId}/creatives/${creativeId}/${name}`;
}

/**
 * Deletes files that nothing refers to any more, best effort: a file left behind wastes space but
 * breaks nothing, so a failure is logged (to be found and removed by hand), never raised.
 */
export async function discardStoredFiles(keys: string[], why: string): Promise<void> {
  const storage = getStorage();
  const results = await Promise.allSettled(keys.map((key) => storage.delete(key)));
  results.forEach((r, i) => {
    if (r.status === "rejected") log.error("could not delete a stored file", { component: "storage", key: keys[i], why, err: r.reason });
  });
}
