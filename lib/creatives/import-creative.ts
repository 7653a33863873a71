import { getDb } from "@/lib/db/client";
import { creativeDerivedKey, discardStoredFiles, getStorage } from "@/lib/storage";
import { sha256File } from "./duplicates";
import { probeImage, probeVideo, UnreadableMediaError } from "./probe-media";
import { renderVideoPreview } from "./render-preview";
import { ensureThumbnails } from "./renditions";
import { log } from "@/lib/log";

export type ImportOutcome = { status: "ready" | "failed" | "gone"; kind?: "image" | "video"; error?: string };

/**
 * Moves an `importing` creative to `ready` with its dimensions read from the file
 * (sharp for images, ffprobe for videos), or to `failed` when the bytes are no image or video
 * the probe can read (UnreadableMediaError). Any other error (the file could not be read for the
 * moment, the probe was killed, timed out or could not start, the database) is thrown with the
 * creative still `importing`, for the job's step retries; once they are spent, the job's failure
 * handler fails the creative with the reason (abandonRun). Repeating it is harmless; a creative
 * deleted meanwhile is left alone ("gone").
 */
export async function finishCreativeImport(creativeId: string): Promise<ImportOutcome> {
  const db = getDb();
  const creative = await db.creative.findUnique({ where: { id: creativeId } });
  if (!creative) return { status: "gone" };
  if (creative.status !== "importing") return { status: creative.status, kind: creative.kind };
  let dims: Awaited<ReturnType<typeof probeImage>>;
  let contentSha256: string;
  try {
    [dims, contentSha256] = await getStorage().withLocalFile(creative.storageKey, (file) =>
      Promise.all([creative.kind === "image" ? probeImage(file) : probeVideo(file), sha256File(file)]),
    );
  } catch (err) {
    if (!(err instanceof UnreadableMediaError)) {
      throw new Error(`Could not read the ${creative.kind} (a temporary error): ${(err as Error).message}`, { cause: err });
    }
    const error = `Could not read the ${creative.kind}: ${err.message}`;
    await db.creative.updateMany({ where: { id: creativeId, status: "importing" }, data: { status: "failed", error } });
    return { status: "failed", kind: creative.kind, error };
  }
  const { count } = await db.creative.updateMany({
    where: { id: creativeId, status: "importing" },
    data: { status: "ready", width: dims.width, height: dims.height, durationMs: dims.durationMs ?? null, error: null, contentSha256 },
  });
  return { status: count ? "ready" : "gone", kind: creative.kind };
}

/**
 * Renders a ready video creative's 720p preview into media storage and records it.
 * Returns whether a preview exists afterwards. A failed transcode is logged and leaves
 * the creative ready without a preview: the original still plays.
 */
export async function renderCreativePreview(creativeId: string): Promise<{ preview: boolean; error?: string }> {
  const db = getDb();
  const creative = await db.creative.findUnique({ where: { id: creativeId } });
  if (creative?.kind !== "video" || creative.status !== "ready") return { preview: false };
  if (creative.previewStorageKey) return { preview: true };
  const storage = getStorage();
  const key = creativeDerivedKey(creative.workspaceId, creative.id, "preview.mp4");
  let stored = false;
  try {
    const rendered = await storage.withLocalFile(creative.storageKey, (file) =>
      renderVideoPreview(file, async (preview) => {
        await storage.put(key, preview, { contentType: "video/mp4" });
        stored = true;
      }),
    );
    if (!rendered) return { preview: false, error: "ffmpeg is not installed" };
  } catch (err) {
    log.error("preview failed", { component: "creatives", creativeId, err });
    if (stored) await discardStoredFiles([key], "preview of a failed render");
    return { preview: false, error: (err as Error).message };
  }
  try {
    // Only onto the file it was rendered from: a version added meanwhile has a file (and soon a preview) of its own.
    const { count } = await db.creative.updateMany({
      where: { id: creativeId, storageKey: creative.storageKey, previewStorageKey: null },
      data: { previewStorageKey: key },
    });
    if (!count) await discardStoredFiles([key], "preview of a creative deleted or given a new version while it rendered");
    return { preview: count > 0 };
  } catch (err) {
    // Not recorded: leave no file behind; the job's step retry renders it again.
    await discardStoredFiles([key], "preview not recorded");
    throw err;
  }
}

/**
 * Renders a ready creative's thumbnails (a video's from its poster frame) into media storage.
 * Cheap for most files but not for a 27 MB photo or a long video, so it runs as its own job step
 * after the import rather than inline in the upload request; a failure is logged and the
 * thumbnail route renders it on first request instead.
 */
export async function renderCreativeThumbnails(creativeId: string): Promise<{ thumbnails: boolean; error?: string }> {
  const creative = await getDb().creative.findUnique({
    where: { id: creativeId },
    select: { id: true, workspaceId: true, kind: true, status: true, storageKey: true, durationMs: true },
  });
  if (creative?.status !== "ready") return { thumbnails: false };
  try {
    return { thumbnails: await ensureThumbnails(creative, "background") };
  } catch (err) {
    log.error("thumbnails failed", { component: "creatives", creativeId, err });
    return { thumbnails: false, error: (err as Error).message };
  }
}
