import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { MediaToolError, mediaTool, runMediaTool } from "./media-tools";
import { log } from "@/lib/log";

export interface MediaDimensions {
  width: number | null;
  height: number | null;
  durationMs?: number | null;
}

const PROBE_TIMEOUT_MS = 60_000;

/**
 * The verdict on a file's bytes: no format the decoder reads, or no picture in it. Reading it again cannot
 * help. Any other error of a probe (the file could not be opened or read, the tool was killed, timed out or
 * could not start) says nothing about the file: the caller may try again.
 */
export class UnreadableMediaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableMediaError";
  }
}

/**
 * Width and height as displayed: EXIF orientations 5 to 8 turn the picture a quarter. Throws
 * UnreadableMediaError when the bytes are no image sharp reads; a read error keeps its code (EMFILE, EIO...).
 */
export async function probeImage(file: string): Promise<MediaDimensions> {
  const meta = await sharp(file, { failOn: "none" })
    .metadata()
    .catch(async () => {
      // libvips reports a file it could not open or read (EMFILE, EACCES, EIO) as it reports one of an unknown
      // format ("unsupported image format"). Read the bytes here, where a read error keeps its code, and let
      // sharp judge the bytes themselves: only then is its refusal a verdict on the file.
      const bytes = await readFile(file);
      return sharp(bytes, { failOn: "none" })
        .metadata()
        .catch((err: Error) => {
          throw new UnreadableMediaError(err.message);
        });
    });
  if (!meta.width || !meta.height) throw new UnreadableMediaError("the image has no readable dimensions");
  const quarterTurn = (meta.orientation ?? 1) >= 5;
  return quarterTurn ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

/**
 * What ffprobe prints when the bytes are not a video it can read (FFmpeg's AVERROR_INVALIDDATA, a missing MP4
 * index, an input no demuxer or decoder takes). Anything else it exits with (an operating system error reading
 * the file: "Input/output error", "Too many open files"...) is no verdict on the file.
 */
const FFPROBE_VERDICTS = [
  /Invalid data found when processing input/i,
  /moov atom not found/i,
  /not yet implemented in FFmpeg/i,
  /Decoder not found/i,
  /Demuxer not found/i,
  /Unknown input format/i,
];

interface FfprobeOutput {
  streams?: { width?: number; height?: number; tags?: { rotate?: string }; side_data_list?: { rotation?: number }[] }[];
  format?: { duration?: string };
}

/**
 * Display dimensions and duration of a video's first video stream (ffprobe). Null
 * dimensions when ffprobe is not installed: the creative is still usable. Throws
 * UnreadableMediaError when ffprobe read the file and found no video in it; other errors
 * (ffprobe killed, timed out, not started, or failing to read the file) are thrown as they are.
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
  ).catch((err: unknown) => {
    const exitedOnItsOwn = err instanceof MediaToolError && err.detail.exitCode !== null && !err.detail.signal && !err.detail.timedOut;
    if (exitedOnItsOwn && FFPROBE_VERDICTS.some((verdict) => verdict.test(err.detail.stderr))) throw new UnreadableMediaError(err.message);
    throw err;
  });
  const parsed = JSON.parse(out) as FfprobeOutput;
  const stream = parsed.streams?.[0];
  if (!stream?.width || !stream.height) throw new UnreadableMediaError("the file has no video stream with dimensions");
  const rotation = Number(stream.side_data_list?.find((s) => s.rotation !== undefined)?.rotation ?? stream.tags?.rotate ?? 0);
  const quarterTurn = Math.abs(rotation) % 180 === 90;
  const seconds = Number(parsed.format?.duration);
  return {
    width: quarterTurn ? stream.height : stream.width,
    height: quarterTurn ? stream.width : stream.height,
    durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
  };
}
