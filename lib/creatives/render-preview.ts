import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { mediaTool, runMediaTool } from "./media-tools";
import { log } from "@/lib/log";

export const PREVIEW_MAX_HEIGHT = 720;
const TRANSCODE_TIMEOUT_MS = 15 * 60_000;

/**
 * Renders a web preview of a video: H.264/AAC MP4 with the index up front (faststart),
 * scaled to at most 720 lines keeping the aspect ratio (never upscaled), and hands the
 * temporary file's stream to `store`. Returns false when ffmpeg is not installed.
 */
export async function renderVideoPreview(source: string, store: (preview: Readable) => Promise<void>): Promise<boolean> {
  const ffmpeg = mediaTool("ffmpeg");
  if (!ffmpeg) {
    log.warn("ffmpeg is not installed: video previews are not rendered (install ffmpeg)", { component: "creatives" });
    return false;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "adloom-preview-"));
  const out = path.join(dir, "preview.mp4");
  try {
    await runMediaTool(
      ffmpeg,
      [
        "-nostdin",
        "-v",
        "error",
        "-y",
        "-i",
        source,
        "-map",
        "0:v:0",
        "-map",
        "0:a:0?",
        // Even width for H.264; min() keeps smaller videos at their own height.
        "-vf",
        `scale=-2:'min(${PREVIEW_MAX_HEIGHT},ih)'`,
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-crf",
        "23",
        "-pix_fmt",
        "yuv420p",
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-ac",
        "2",
        "-movflags",
        "+faststart",
        "-f",
        "mp4",
        out,
      ],
      TRANSCODE_TIMEOUT_MS,
    );
    await store(createReadStream(out));
    return true;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
