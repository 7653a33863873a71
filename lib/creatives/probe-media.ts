import sharp from "sharp";
import { mediaTool, runMediaTool } from "./media-tools";
import { log } from "@/lib/log";

export interface MediaDimensions {
  width: number | null;
  height: number | null;
  durationMs?: number | null;
}

const PROBE_TIMEOUT_MS = 60_000;

/** Width and height as displayed: EXIF orientations 5 to 8 turn the picture a quarter. */
export async function probeImage(file: string): Promise<MediaDimensions> {
  const meta = await sharp(file, { failOn: "none" }).metadata();
  if (!meta.width || !meta.height) throw new Error("the image has no readable dimensions");
  const quarterTurn = (meta.orientation ?? 1) >= 5;
  return quarterTurn ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

interface FfprobeOutput {
  streams?: { width?: number; height?: number; tags?: { rotate?: string }; side_data_list?: { rotation?: number }[] }[];
  format?: { duration?: string };
}

/**
 * Display dimensions and duration of a video's first video stream (ffprobe). Null
 * dimensions when ffprobe is not installed: the creative is still usable.
 */
export async function probeVideo(file: string): Promise<MediaDimensions> {
  const ffprobe = mediaTool("ffprobe");
  if (!ffprobe) {
    log.warn("ffprobe is not installed: video dimensions stay unknown (install ffmpeg)", { component: "creatives" });
    return { width: null, height: null, durationMs: null };
  }
  const out = await runMediaTool(
    ffprobe,
    [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=width,height:stream_tags=rotate:stream_side_data=rotation:format=duration",
      "-of",
      "json",
      file,
    ],
    PROBE_TIMEOUT_MS,
  );
  const parsed = JSON.parse(out) as FfprobeOutput;
  const stream = parsed.streams?.[0];
  if (!stream?.width || !stream.height) throw new Error("the file has no video stream with dimensions");
  const rotation = Number(stream.side_data_list?.find((s) => s.rotation !== undefined)?.rotation ?? stream.tags?.rotate ?? 0);
  const quarterTurn = Math.abs(rotation) % 180 === 90;
  const seconds = Number(parsed.format?.duration);
  return {
    width: quarterTurn ? stream.height : stream.width,
    height: quarterTurn ? stream.width : stream.height,
    durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
  };
}
