import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { inject } from "vitest";
import { uploadStorageKey } from "@/lib/storage";
import { paced } from "../../scripts/test-pace.mjs";

export type Part = { field: string; value: string } | { file: string; fileName: string; contentType: string; data: Buffer | (() => AsyncIterable<Buffer>) };

/** A file part named `files` (the spec's part name). */
export const filePart = (fileName: string, contentType: string, data: Buffer | (() => AsyncIterable<Buffer>)): Part => ({
  file: "files",
  fileName,
  contentType,
  data,
});

const escapeQuoted = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

/** Yields a multipart/form-data body part by part, never holding a large file in memory. */
async function* multipartChunks(boundary: string, parts: Part[]): AsyncIterable<Buffer> {
  for (const part of parts) {
    if ("field" in part) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`);
      continue;
    }
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${part.file}"; filename="${escapeQuoted(part.fileName)}"\r\n` +
        `Content-Type: ${part.contentType}\r\n\r\n`,
    );
    if (Buffer.isBuffer(part.data)) yield part.data;
    else for await (const chunk of part.data()) yield chunk;
    yield Buffer.from("\r\n");
  }
  yield Buffer.from(`--${boundary}--\r\n`);
}

/** POST /api/v1/uploads with a streamed multipart body. */
export async function postUploads(key: string, parts: Part[], options: { baseUrl?: string; headers?: Record<string, string> } = {}) {
  const boundary = `----adloom${randomBytes(8).toString("hex")}`;
  const body = Readable.toWeb(Readable.from(multipartChunks(boundary, parts))) as ReadableStream<Uint8Array>;
  const res = await fetch(`${options.baseUrl ?? inject("baseUrl")}/api/v1/uploads`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": `multipart/form-data; boundary=${boundary}`, ...options.headers },
    body,
    duplex: "half",
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** `prefix` followed by filler bytes up to `totalBytes`, generated as it is read. */
export function paddedStream(prefix: Buffer, totalBytes: number): () => AsyncIterable<Buffer> {
  return async function* () {
    yield prefix;
    const chunk = Buffer.alloc(1024 * 1024, 0x2e);
    let left = totalBytes - prefix.length;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
  };
}

/** A real image of the given format. */
export function makeImage(format: "png" | "jpeg" | "webp" | "gif", options: { width?: number; height?: number; seed?: number } = {}): Promise<Buffer> {
  const seed = options.seed ?? Math.floor(Math.random() * 255);
  return sharp({
    create: { width: options.width ?? 32, height: options.height ?? 24, channels: 3, background: { r: seed, g: 120, b: 255 - seed } },
  })
    .toFormat(format)
    .toBuffer();
}

const videoCache = new Map<string, Buffer>();

/** A real one-second video (ffmpeg test pattern). */
export function makeVideo(format: "mp4" | "webm"): Buffer {
  const cached = videoCache.get(format);
  if (cached) return cached;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "adloom-video-")), `clip.${format}`);
  const codec = format === "mp4" ? ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"] : ["-c:v", "libvpx", "-b:v", "200k"];
  execFileSync("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1", ...codec, "-y", file]);
  const data = fs.readFileSync(file);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  videoCache.set(format, data);
  return data;
}

/** Every regular file the shared server stores for a workspace (its media tree, or the named folder of it). */
export function storedFiles(workspaceId: string, dataDir = inject("dataDir"), folder = ""): string[] {
  const root = path.join(dataDir, "media", workspaceId, folder);
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath ?? (d as unknown as { path: string }).path, d.name));
}

/**
 * The uploads' original bytes only (the folder uploadStorageKey puts them in), without the creatives' derived files:
 * an upload's job writes thumbnails beside it as soon as it runs.
 */
export function storedOriginals(workspaceId: string, dataDir = inject("dataDir")): string[] {
  const folder = path.posix.relative(workspaceId, path.posix.dirname(uploadStorageKey(workspaceId, "upl_any")));
  return storedFiles(workspaceId, dataDir, folder);
}

/** Polls an upload until it leaves `processing` (or the timeout, stretched by the run's pace, passes). */
export async function waitForUpload(call: (path: string) => Promise<{ status: number; body: any }>, id: string, timeoutMs = 45_000): Promise<any> {
  const deadline = Date.now() + paced(timeoutMs);
  for (;;) {
    const res = await call(`/api/v1/uploads/${id}`);
    if (res.status !== 200) throw new Error(`GET upload ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.upload.status !== "processing") return res.body.upload;
    if (Date.now() > deadline) throw new Error(`upload ${id} still processing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
