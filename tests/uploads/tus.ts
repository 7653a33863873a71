import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { waitFor } from "../helpers/library";

/**
 * A tus 1.0.0 client spoken by hand (fetch and raw sockets), so the tests see the protocol's
 * headers and statuses exactly, and can cut a PATCH off mid-body as a dropped connection does.
 */
export const TUS_PATH = "/api/v1/uploads/tus";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

export function tusMetadata(meta: Record<string, string>): string {
  return Object.entries(meta)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(",");
}

export interface TusAnswer {
  status: number;
  headers: Headers;
  body: any;
}

async function answer(res: Response): Promise<TusAnswer> {
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body };
}

export async function tusCreate(
  key: string,
  size: number,
  meta: Record<string, string>,
  options: { baseUrl?: string; headers?: Record<string, string> } = {},
): Promise<TusAnswer & { url: string }> {
  const base = options.baseUrl ?? inject("baseUrl");
  const res = await fetch(base + TUS_PATH, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Tus-Resumable": "1.0.0",
      "Upload-Length": String(size),
      "Upload-Metadata": tusMetadata(meta),
      ...options.headers,
    },
  });
  const a = await answer(res);
  const location = a.headers.get("location");
  return { ...a, url: location ? new URL(location, base + TUS_PATH).toString() : "" };
}

export async function tusHead(key: string, url: string): Promise<TusAnswer & { offset: number | null; length: number | null }> {
  const res = await fetch(url, { method: "HEAD", headers: { Authorization: `Bearer ${key}`, "Tus-Resumable": "1.0.0" } });
  const a = await answer(res);
  const num = (h: string) => (a.headers.get(h) === null ? null : Number(a.headers.get(h)));
  return { ...a, offset: num("upload-offset"), length: num("upload-length") };
}

export async function tusPatch(key: string, url: string, offset: number, bytes: Buffer): Promise<TusAnswer> {
  const res = await fetch(url, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${key}`, "Tus-Resumable": "1.0.0", "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
    body: new Uint8Array(bytes),
  });
  return answer(res);
}

/**
 * Waits until the server has staged at least `bytes` of upload `uploadId` in `<dataDir>/tus`: a cut
 * or a kill after it lands mid-write, not before the server began reading the body (which, behind the
 * key check and a database read on a busy machine, can take longer than any fixed pause).
 */
export async function partStaged(dataDir: string, uploadId: string, bytes = 64 * 1024): Promise<void> {
  const dir = path.join(dataDir, "tus");
  const staged = () =>
    (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      .filter((f) => f.startsWith(uploadId))
      .reduce((most, f) => Math.max(most, fs.statSync(path.join(dir, f)).size), 0);
  await waitFor(`${bytes} bytes of ${uploadId} staged`, async () => staged() >= bytes || undefined, 15_000, 50);
}

/**
 * Starts a PATCH promising all of `bytes`, sends only the first `sendBytes` of them and then
 * drops the connection (no FIN-delimited end: the socket is destroyed), as a lost network does.
 * `beforeCut` runs after the bytes are sent and before the cut (wait for `partStaged`, or kill the server instead).
 */
export async function cutPatch(key: string, url: string, offset: number, bytes: Buffer, sendBytes: number, beforeCut: () => Promise<void>): Promise<void> {
  const { hostname, port, pathname } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on("error", () => undefined);
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const head =
    `PATCH ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\nTus-Resumable: 1.0.0\r\n` +
    `Upload-Offset: ${offset}\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: ${bytes.length}\r\n\r\n`;
  socket.write(head);
  const part = bytes.subarray(0, sendBytes);
  for (let i = 0; i < part.length; i += 64 * 1024) {
    const ok = socket.write(part.subarray(i, i + 64 * 1024));
    if (!ok) await new Promise((r) => socket.once("drain", r));
  }
  await beforeCut();
  socket.destroy();
}

/** Waits until HEAD reports an offset that stays put (the cut PATCH has been wound up). */
export async function settledOffset(key: string, url: string, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const head = await tusHead(key, url);
    if (head.status === 200 && head.offset === last) return last;
    if (head.status === 200) last = head.offset!;
    if (Date.now() > deadline) throw new Error(`offset did not settle: last HEAD ${head.status} ${JSON.stringify(head.body)}`);
    await new Promise((r) => setTimeout(r, 700));
  }
}

export const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

let bigVideo: Buffer | undefined;

/** A real MP4 of a few megabytes (noise compresses badly), so a cut at 50% leaves megabytes on both sides. */
export function largeVideo(): Buffer {
  if (bigVideo) return bigVideo;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-tus-video-"));
  const file = path.join(dir, "clip.mp4");
  execFileSync("ffmpeg", [
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    "nullsrc=size=320x240:rate=10",
    "-vf",
    "noise=alls=100:allf=t+u,format=yuv420p",
    "-t",
    "3",
    "-c:v",
    "libx264",
    "-qp",
    "0",
    "-preset",
    "ultrafast",
    "-movflags",
    "+faststart",
    "-y",
    file,
  ]);
  bigVideo = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return bigVideo;
}
