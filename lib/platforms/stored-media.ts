import { getStorage } from "@/lib/storage";
import { PlatformError } from "./types";

/**
 * The bytes of a stored upload that a push sends, whole or `[start, end)` (a chunk). A file gone from media storage
 * fails the push for good; a range that comes back short is retried. A range is read into one buffer
 * (MediaStorage.readBytes), not streamed and concatenated: an 8 MB chunk so cost the event loop a quarter as much.
 */
export async function storedMediaBytes(storageKey: string, range?: { start: number; end: number }): Promise<Buffer> {
  const storage = getStorage();
  if (range) {
    const bytes = await storage.readBytes(storageKey, range.start, range.end);
    if (!bytes) throw gone();
    if (bytes.length !== range.end - range.start) {
      throw new PlatformError("upstream_error", `media storage returned ${bytes.length} of ${range.end - range.start} bytes`, { retryable: true });
    }
    return bytes;
  }
  const object = await storage.read(storageKey);
  if (!object) throw gone();
  const parts: Buffer[] = [];
  for await (const part of object.stream as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts);
}

const gone = () => new PlatformError("invalid_input", "The file to push is no longer in media storage", { retryable: false });
