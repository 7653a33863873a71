import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";

/** A real PNG of the given size (noise-free gradient, so it compresses but is not trivial). */
export async function pngImage(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

/** A real JPEG of the given size. */
export async function jpegImage(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 220, g: 60, b: 30 } } })
    .jpeg()
    .toBuffer();
}

const videoCache = new Map<string, Buffer>();

/** A real H.264/AAC MP4 made by ffmpeg from its test sources (cached per size within a test file). */
export function mp4Video(width: number, height: number, seconds = 1): Buffer {
  const id = `${width}x${height}x${seconds}`;
  const cached = videoCache.get(id);
  if (cached) return cached;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-video-"));
  const out = path.join(dir, "v.mp4");
  execFileSync("ffmpeg", [
    "-nostdin",
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc=size=${width}x${height}:rate=15`,
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=44100",
    "-t",
    String(seconds),
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    out,
  ]);
  const bytes = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  videoCache.set(id, bytes);
  return bytes;
}

/** Width, height and codec of a video file's first video stream, by ffprobe. */
export function probeVideoBytes(bytes: Buffer): { width: number; height: number; codec: string; audioCodec: string | null } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-probe-"));
  const file = path.join(dir, "f.mp4");
  fs.writeFileSync(file, bytes);
  try {
    const out = JSON.parse(
      execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height", "-of", "json", file], { encoding: "utf8" }),
    ) as { streams: { codec_type: string; codec_name: string; width?: number; height?: number }[] };
    const video = out.streams.find((s) => s.codec_type === "video")!;
    const audio = out.streams.find((s) => s.codec_type === "audio");
    return { width: video.width!, height: video.height!, codec: video.codec_name, audioCodec: audio?.codec_name ?? null };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
