import { hash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { creativeDerivedKey, getStorage } from "@/lib/storage";
import { defineService } from "@/lib/services";
import { type ImageWorkLane, withImageWork } from "./image-work";
import { mediaTool, runMediaTool } from "./media-tools";

/**
 * Thumbnails: WebP renditions of a creative in two widths (a video's are made from its poster
 * frame). The library, pickers, tables and boards show these; the original is sent only when
 * asked for (the creative page's "Original" link, downloads, the API's mediaPath).
 *
 * Their URLs are content-addressed: the tag hashes the original's storage key (a stored file's
 * bytes never change; a new version gets a new key), so a thumbnail URL can be cached for a year
 * as immutable and a new version simply has new URLs.
 */
export const THUMBNAIL_WIDTHS = [320, 960] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

// Bump when the recipe changes (quality, widths, frame choice): every URL and file changes with it.
const RECIPE = "r1";
const WEBP_QUALITY = 72;
const POSTER_TIMEOUT_MS = 60_000;

export interface RenditionSource {
  id: string;
  workspaceId: string;
  kind: "image" | "video";
  storageKey: string;
  durationMs: number | null;
}

/** 24 hex characters naming the original's bytes and the recipe (24+ so metrics label it as an id). */
export function renditionTag(storageKey: string): string {
  // One-shot: a library page tags every creative it lists, and a Hash object per call cost twice the time.
  return hash("sha256", `${RECIPE}:${storageKey}`, "hex").slice(0, 24);
}

export function thumbnailKey(source: Pick<RenditionSource, "id" | "workspaceId" | "storageKey">, width: ThumbnailWidth): string {
  return creativeDerivedKey(source.workspaceId, source.id, `thumb-${renditionTag(source.storageKey)}-${width}.webp`);
}

/** Every thumbnail file an original can have (to discard them with it). */
export function thumbnailKeysOf(source: Pick<RenditionSource, "id" | "workspaceId" | "storageKey">): string[] {
  return THUMBNAIL_WIDTHS.map((w) => thumbnailKey(source, w));
}

export function thumbnailPath(creativeId: string, storageKey: string, width: ThumbnailWidth): string {
  return pathWithTag(creativeId, renditionTag(storageKey), width);
}

const pathWithTag = (creativeId: string, tag: string, width: ThumbnailWidth) => `/api/media/${creativeId}/thumbnails/${width}/${tag}`;

/** Both thumbnail paths of a ready creative. */
export function thumbnailPaths(creativeId: string, storageKey: string): { small: string; large: string } {
  const tag = renditionTag(storageKey);
  return { small: pathWithTag(creativeId, tag, 320), large: pathWithTag(creativeId, tag, 960) };
}

/** Requests for the same thumbnails share one rendering (a library page asks for many at once). */
const inFlight = defineService("creatives.renditions-in-flight", () => new Map<string, Promise<boolean>>());

/**
 * Makes sure both thumbnails of the creative's current file exist in storage, rendering them
 * when missing. Returns false when they cannot be made (a video without ffmpeg installed).
 * Failures to decode are thrown. The upload job renders in the "background" lane: a page waiting
 * for a thumbnail goes first.
 */
export function ensureThumbnails(source: RenditionSource, lane: ImageWorkLane = "waited-on"): Promise<boolean> {
  const key = thumbnailKey(source, THUMBNAIL_WIDTHS[0]);
  const running = inFlight().get(key);
  if (running) return running;
  const work = (async () => {
    const storage = getStorage();
    const existing = await Promise.all(thumbnailKeysOf(source).map((k) => storage.stat(k)));
    if (existing.every(Boolean)) return true;
    return renderThumbnails(source, lane);
  })().finally(() => inFlight().delete(key));
  inFlight().set(key, work);
  return work;
}

async function renderThumbnails(source: RenditionSource, lane: ImageWorkLane): Promise<boolean> {
  const storage = getStorage();
  const large = await storage.withLocalFile(source.storageKey, async (file) => {
    if (source.kind === "image") return resizeToWebp(file, 960, lane);
    const frame = await extractPosterFrame(file, source.durationMs);
    if (!frame) return null;
    try {
      return await resizeToWebp(frame.file, 960, lane);
    } finally {
      await fs.rm(frame.dir, { recursive: true, force: true });
    }
  });
  if (!large) return false;
  // The small one from the large: one decode of a possibly huge original.
  const small = await resizeToWebp(large, 320, lane);
  // Small last: ensureThumbnails' fast path checks both, and a reader of the small one finds it whole.
  await storage.put(thumbnailKey(source, 960), Readable.from(large), { contentType: "image/webp" });
  await storage.put(thumbnailKey(source, 320), Readable.from(small), { contentType: "image/webp" });
  return true;
}

function resizeToWebp(input: string | Buffer, width: number, lane: ImageWorkLane): Promise<Buffer> {
  // rotate() applies the EXIF orientation (the WebP keeps no EXIF); never upscaled.
  return withImageWork(
    () => sharp(input, { failOn: "none" }).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: WEBP_QUALITY, effort: 2 }).toBuffer(),
    lane,
  );
}

/** A still from a second in (or the middle of a shorter video), as a PNG in a temporary directory. */
async function extractPosterFrame(video: string, durationMs: number | null): Promise<{ dir: string; file: string } | null> {
  const ffmpeg = mediaTool("ffmpeg");
  if (!ffmpeg) return null;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "adloom-poster-"));
  const file = path.join(dir, "poster.png");
  const at = durationMs === null ? 1 : Math.min(1, durationMs / 2000);
  try {
    const grab = (seconds: number) =>
      runMediaTool(
        ffmpeg,
        ["-nostdin", "-v", "error", "-y", "-ss", seconds.toFixed(3), "-i", video, "-map", "0:v:0", "-frames:v", "1", "-vf", "scale='min(1920,iw)':-2", file],
        POSTER_TIMEOUT_MS,
      );
    await grab(at);
    // Seeking past the last frame writes nothing: take the first frame instead.
    if (!(await fs.stat(file).catch(() => null))) await grab(0);
    if (!(await fs.stat(file).catch(() => null))) throw new Error("the video has no frame to show");
    return { dir, file };
  } catch (err) {
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  }
}
