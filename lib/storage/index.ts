import { getConfig } from "@/lib/config";
import { LocalMediaStorage } from "./local";
import type { MediaStorage } from "./media-storage";
import { S3MediaStorage } from "./s3";

export type { ByteRange, MediaStorage, StoredObjectInfo, StoredObjectStream } from "./media-storage";
export { assertValidKey } from "./media-storage";
export { LocalMediaStorage } from "./local";
export { S3MediaStorage } from "./s3";

const globalForStorage = globalThis as unknown as { __adloomStorage?: MediaStorage };

/** The process's media storage, chosen by STORAGE_DRIVER (local directory under DATA_DIR, or S3). */
export function getStorage(): MediaStorage {
  if (globalForStorage.__adloomStorage) return globalForStorage.__adloomStorage;
  const storage = getConfig().storage;
  globalForStorage.__adloomStorage = storage.driver === "s3" ? new S3MediaStorage(storage) : new LocalMediaStorage(storage.dir);
  return globalForStorage.__adloomStorage;
}

/** Storage key of an upload's original bytes. Creatives made from it share the key. */
export function uploadStorageKey(workspaceId: string, uploadId: string): string {
  return `${workspaceId}/uploads/${uploadId}`;
}

/** Storage key of a creative's derived file (e.g. `preview.mp4`). */
export function creativeDerivedKey(workspaceId: string, creativeId: string, name: string): string {
  return `${workspaceId}/creatives/${creativeId}/${name}`;
}
