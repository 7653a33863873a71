/**
 * npm run bench:upload [-- --db postgres] [-- --rounds N] [-- --settle] [-- --only images|video]
 * Posts a ~200 MB video (one request) and 25 images of 1 MB (one request) to
 * POST /api/v1/uploads, and the very same multipart bytes to a plain Node HTTP server
 * that streams the body to a file on the same disk (the physical baseline), in one run,
 * alternating baseline and service per body. Prints each round's figures, each body's throughput ratio (best of N), the Next server's peak RSS growth while uploading, and
 * the latency from "accepted" (201) to "completed" for the small images.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import sharp from "sharp";
import { benchTenant, markWindow, rssBytes, serverProcessIds, startBenchServer } from "./lib";

const MB = 1024 * 1024;
/** `--settle`: before each service request, wait until the jobs of the earlier uploads (imports, thumbnails, video previews) have finished. */
const SETTLE = process.argv.includes("--settle");
const ROUNDS = process.argv.includes("--rounds") ? Number(process.argv[process.argv.indexOf("--rounds") + 1]) : 3;
/** `--only images` or `--only video`: measure that body alone (quicker, for profiling one of them). */
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-bench-upload-"));

/** A real QuickTime file (uncompressed 2vuy 720p frames) of ~199 MB: valid media the server accepts, cached across runs. */
function bigVideo(): string {
  const file = path.join(os.tmpdir(), "adloom-bench-720p-2vuy.mov");
  if (!fs.existsSync(file)) {
    execFileSync("ffmpeg", [
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "testsrc2=size=1280x720:rate=24",
      "-frames:v",
      "108",
      "-c:v",
      "rawvideo",
      "-pix_fmt",
      "uyvy422",
      "-y",
      file + ".tmp.mov",
    ]);
    fs.renameSync(file + ".tmp.mov", file);
  }
  return file;
}

/** A 1 MB PNG of noise (barely compressible). */
function noiseImage(): Promise<Buffer> {
  const side = 577;
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** Writes a multipart/form-data body to disk, so both servers receive identical bytes. */
async function multipartFile(
  name: string,
  files: { fileName: string; contentType: string; path: string }[],
): Promise<{ path: string; contentType: string; bytes: number }> {
  const boundary = `----adloombench${randomBytes(8).toString("hex")}`;
  const out = path.join(work, name);
  async function* chunks() {
    for (const f of files) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.fileName}"\r\nContent-Type: ${f.contentType}\r\n\r\n`);
      yield* fs.createReadStream(f.path);
      yield Buffer.from("\r\n");
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  await pipeline(chunks, fs.createWriteStream(out));
  return { path: out, contentType: `multipart/form-data; boundary=${boundary}`, bytes: fs.statSync(out).size };
}

/** POSTs a file as the request body; resolves with status, body and elapsed ms. */
function post(url: string, body: { path: string; contentType: string; bytes: number }, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, {
      method: "POST",
      headers: { "Content-Type": body.contentType, "Content-Length": String(body.bytes), ...headers },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - started }));
    });
    req.on("error", reject);
    fs.createReadStream(body.path).pipe(req);
  });
}

/**
 * The physical baseline: a plain Node HTTP server in its own process (as the service has its own,
 * so neither shares a thread with the bench's client) that streams the request body to a file and answers {}.
 */
const BASELINE_SERVER = `
const fs = require("node:fs"), http = require("node:http"), path = require("node:path");
const { pipeline } = require("node:stream/promises");
let n = 0;
const server = http.createServer(async (req, res) => {
  const file = path.join(process.argv[1], "baseline-" + ++n);
  await pipeline(req, fs.createWriteStream(file));
  fs.rmSync(file, { force: true });
  res.writeHead(201, { "Content-Type": "application/json" }).end("{}");
});
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));
`;

async function startBaselineServer(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ["-e", BASELINE_SERVER, dir], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  const port = Number(line.toString().trim());
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      child.kill();
      await once(child, "exit");
    },
  };
}

/** Thumbnail files in the server's media storage (the upload job renders two per creative after filing it). */
function thumbnailFiles(dataDir: string): number {
  return fs.readdirSync(dataDir, { recursive: true, encoding: "utf8" }).filter((name) => /(^|\/)thumb-[^/]*\.webp$/.test(name)).length;
}

/**
 * Until every upload has finished and every creative is imported, with its thumbnails (two per creative) and,
 * for a video, its preview rendered: the job's last steps run after the upload already reads "completed".
 */
async function waitUntilQuiet(baseUrl: string, headers: Record<string, string>, timeoutMs: number, dataDir: string): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const uploads = (await (await fetch(`${baseUrl}/api/v1/uploads?limit=200`, { headers })).json()).uploads as { status: string }[];
    const creatives = ((await (await fetch(`${baseUrl}/api/v1/creatives?limit=200`, { headers })).json()).creatives ?? []) as {
      status: string;
      kind: string;
      previewPath?: string | null;
    }[];
    const ready = creatives.filter((c) => c.status === "ready").length;
    const busy =
      uploads.some((u) => u.status === "processing") ||
      creatives.some((c) => c.status === "importing" || (c.kind === "video" && c.status === "ready" && !c.previewPath)) ||
      thumbnailFiles(dataDir) < 2 * ready;
    if (!busy) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);

console.log("bench:upload — preparing media (ffmpeg, sharp)...");
const video = bigVideo();
const imagePaths: string[] = [];
for (let i = 0; i < 25; i++) {
  const p = path.join(work, `image-${i}.png`);
  fs.writeFileSync(p, await noiseImage());
  imagePaths.push(p);
}
const videoBody = await multipartFile("video.multipart", [{ fileName: "big.mov", contentType: "video/quicktime", path: video }]);
const imagesBody = await multipartFile(
  "images.multipart",
  imagePaths.map((p, i) => ({ fileName: `image-${i}.png`, contentType: "image/png", path: p })),
);
const warmBody = await multipartFile("warm.multipart", [{ fileName: "warm.png", contentType: "image/png", path: imagePaths[0]! }]);

const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000", PLATFORM_RETRY_DELAYS_MS: "100,200" });
const baseline = await startBaselineServer(path.join(server.dataDir));
try {
  const { key } = await benchTenant(server);
  const auth = { Authorization: `Bearer ${key}` };
  const uploadsUrl = `${server.url}/api/v1/uploads`;
  const pids = serverProcessIds(server.port, server.dataDir);
  if (!pids.length) throw new Error("could not find the server's processes in /proc");

  // Warm both paths.
  const warm = await post(uploadsUrl, warmBody, auth);
  if (warm.status !== 201) throw new Error(`warm-up upload failed: ${warm.status} ${warm.text}`);
  await post(baseline.url, warmBody);
  await new Promise((r) => setTimeout(r, 1000));

  // Each body goes to the baseline, then to the service, in alternating rounds; the best of each counts.
  const totalBytes = videoBody.bytes + imagesBody.bytes;
  const timings = { video: { baseline: [] as number[], service: [] as number[] }, images: { baseline: [] as number[], service: [] as number[] } };
  let peakGrowth = 0;
  let latencies: number[] | null = null;
  let latencyNote = "";
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, body] of (
      [
        ["video", videoBody],
        ["images", imagesBody],
      ] as const
    ).filter(([name]) => !ONLY || name === ONLY)) {
      timings[name].baseline.push((await post(baseline.url, body)).ms);
      if (SETTLE) await waitUntilQuiet(server.url, auth, 180_000, server.dataDir);
      const rssBefore = rssBytes(pids);
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pids))), 20);
      const startedAt = process.hrtime.bigint();
      const answer = await post(uploadsUrl, body, auth);
      markWindow(name, startedAt);
      clearInterval(sampler);
      peak = Math.max(peak, rssBytes(pids));
      peakGrowth = Math.max(peakGrowth, peak - rssBefore);
      if (answer.status !== 201) throw new Error(`upload failed: ${answer.status} ${answer.text}`);
      timings[name].service.push(answer.ms);
      // Each round's pair, not only the best: the service's rounds show how the earlier uploads' jobs weigh on it.
      console.log(
        `round ${round + 1} ${name.padEnd(6)} baseline ${mbps(body.bytes, timings[name].baseline.at(-1)!).toFixed(0).padStart(5)} MB/s   service ${mbps(body.bytes, answer.ms).toFixed(0).padStart(5)} MB/s`,
      );
    }
  }

  // Latency on a quiet server: wait for the jobs above (imports, the videos' preview
  // rendering), then send the 25 images once more and time each to "completed".
  const settled = await waitUntilQuiet(server.url, auth, 180_000, server.dataDir);
  if (settled) {
    const i = await post(uploadsUrl, imagesBody, auth);
    const acceptedAt = performance.now();
    const ids: string[] = JSON.parse(i.text).uploads.map((u: { id: string }) => u.id);
    const done = new Map<string, number>();
    while (done.size < ids.length && performance.now() < acceptedAt + 30_000) {
      const res = await fetch(`${uploadsUrl}?limit=200`, { headers: auth });
      const now = performance.now();
      for (const u of (await res.json()).uploads as { id: string; status: string }[]) {
        if (ids.includes(u.id) && u.status !== "processing" && !done.has(u.id)) done.set(u.id, now - acceptedAt);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    if (done.size === ids.length) latencies = [...done.values()];
    else latencyNote = `only ${done.size} of ${ids.length} images left "processing" within 30 s`;
  } else {
    latencyNote = "earlier uploads or imports were still running after 180 s (is the upload job function registered?)";
  }

  console.log(
    `\nbench:upload — database ${db}, 1 video of ${(videoBody.bytes / MB).toFixed(1)} MB and 25 images of ~1 MB (${(imagesBody.bytes / MB).toFixed(1)} MB) per round, best of ${ROUNDS}${SETTLE ? ", each service request after the earlier uploads' jobs finished" : ""}`,
  );
  const ratios: Record<string, number> = {};
  for (const [name, bytes, target] of (
    [
      ["images", imagesBody.bytes, 0.8],
      ["video", videoBody.bytes, 0.9],
    ] as const
  ).filter(([name]) => !ONLY || name === ONLY)) {
    const base = mbps(bytes, Math.min(...timings[name].baseline));
    const service = mbps(bytes, Math.min(...timings[name].service));
    ratios[name] = service / base;
    console.log(
      `${name.padEnd(7)} baseline (plain Node, body -> file) ${base.toFixed(0).padStart(6)} MB/s   POST /api/v1/uploads ${service.toFixed(0).padStart(6)} MB/s`,
    );
    console.log(`${name.padEnd(7)} throughput ratio service ÷ baseline: ${ratios[name]!.toFixed(2)} (target ≥ ${target})`);
  }
  const best = (xs: number[]) => Math.min(...xs);
  const combined = ONLY
    ? NaN
    : mbps(totalBytes, best(timings.video.service) + best(timings.images.service)) /
      mbps(totalBytes, best(timings.video.baseline) + best(timings.images.baseline));
  if (!ONLY) console.log(`both    throughput ratio service ÷ baseline: ${combined.toFixed(2)}`);
  console.log(`server peak RSS growth while uploading: ${(peakGrowth / MB).toFixed(1)} MB (target < 64 MB; ${pids.length} processes sampled)`);
  if (latencies) {
    console.log(
      `accepted -> completed, 25 images on a quiet server: median ${(median(latencies) / 1000).toFixed(2)} s, max ${(Math.max(...latencies) / 1000).toFixed(2)} s (target median < 1 s)`,
    );
  } else {
    console.log(`accepted -> completed: n/a — ${latencyNote}`);
  }
} finally {
  await baseline.close();
  await stop();
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(0);
