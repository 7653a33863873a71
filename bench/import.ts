/**
 * npm run bench:import [-- --db postgres]
 * IMPORT_BENCH_FILES (default 200) noise PNGs of IMPORT_BENCH_FILE_MB (default 10: 2 GB in all) are put
 * into a local S3-compatible server (s3rver, in a child process of its own so that neither side shares
 * its event loop), then, in one run:
 *   baseline  a plain streamed copy from the same bucket to files on the same disk as the server's
 *             media storage (GetObject -> file, 4 at a time, as the import job runs 4 at a time), with
 *             a client built as the import's S3 source builds its own; run before and after the import
 *             (the ratio uses their mean, so a change in the machine's load during the run is halved);
 *   import    import_files of all the keys, timed until every item has been transferred (the run's
 *             transferredAt: each file in media storage, sniffed, size-checked, hashed, deduplicated);
 *   complete  then until the run completed (its images' near-duplicate check, its uploads' jobs started);
 *   settle    then until those upload jobs (push to the sandbox account, probe, thumbnails) have all finished.
 * Prints the throughput ratio (target >= 0.8), the server's peak RSS growth (target < 64 MB) while
 * importing and until the upload jobs settled, and the CPU-seconds each process spent in each phase
 * (the machine is shared: CPU-seconds compare across runs where wall time does not).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { benchTenant, cpuSeconds, rssBytes, serverProcessIds, startBenchServer } from "./lib";
import { startS3FakeProcess } from "./support/s3-fake-process";

const MB = 1024 * 1024;
const FILES = Number(process.env.IMPORT_BENCH_FILES ?? 200);
const FILE_MB = Number(process.env.IMPORT_BENCH_FILE_MB ?? 10);
const CONCURRENCY = 4;
const SETTLE_TIMEOUT_MS = 20 * 60_000;

/** A noise PNG of about FILE_MB (barely compressible); each file appends its own bytes after IEND so no two are equal. */
async function basePng(): Promise<Buffer> {
  const side = Math.round(Math.sqrt((FILE_MB * MB) / 3));
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** Files named like the small thumbnail (written last by the upload job) under the media directory. */
function countSmallThumbnails(dir: string): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /^thumb-[0-9a-f]+-320\.webp$/.test(entry.name)) count++;
  }
  return count;
}

const METRICS_TOKEN = "bench-import-metrics-token";

/** Where the server's memory is (its Prometheus metrics): V8 heap, external (Buffers), RSS; the rest of RSS is native (libvips, malloc, WASM). */
async function memory(url: string): Promise<{ heap: number; external: number; rss: number }> {
  const text = await (await fetch(`${url}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name: string) => Number(new RegExp(`^adloom_${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
  return { heap: value("nodejs_heap_size_used_bytes"), external: value("nodejs_external_memory_bytes"), rss: value("process_resident_memory_bytes") };
}
const showMemory = (m: { heap: number; external: number; rss: number }) =>
  `RSS ${(m.rss / MB).toFixed(0)} MB = heap ${(m.heap / MB).toFixed(0)} + external ${(m.external / MB).toFixed(0)} + native/other ${((m.rss - m.heap - m.external) / MB).toFixed(0)}`;

const s3 = await startS3FakeProcess(`bench-import-${Date.now()}`);
const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000", METRICS_TOKEN });
try {
  const base = await basePng();
  const keys: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const key = `bench/file-${String(i).padStart(4, "0")}.png`;
    await s3.put(key, Buffer.concat([base, randomBytes(16)]), "image/png");
    keys.push(key);
  }
  const totalBytes = FILES * (base.length + 16);
  console.log(`bench:import — database ${db}, ${FILES} files of ${(base.length / MB).toFixed(1)} MB, ${(totalBytes / MB).toFixed(0)} MB in all`);

  // Baseline: the same bytes from the same bucket to the same disk.
  const baseline = async () => {
    const copyDir = fs.mkdtempSync(path.join(server.dataDir, "baseline-"));
    const fakeCpu = cpuSeconds([s3.pid]);
    const ownCpu = process.cpuUsage();
    const started = performance.now();
    await inParallel(keys, CONCURRENCY, async (key) => {
      const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
      await pipeline(object.Body as Readable, fs.createWriteStream(path.join(copyDir, path.basename(key))));
    });
    const ms = performance.now() - started;
    const own = process.cpuUsage(ownCpu);
    fs.rmSync(copyDir, { recursive: true, force: true });
    return { ms, clientCpu: (own.user + own.system) / 1e6, fakeCpu: cpuSeconds([s3.pid]) - fakeCpu };
  };
  const before = await baseline();

  const { key } = await benchTenant(server);
  const call = async (name: string, args: unknown) => {
    const res = await fetch(`${server.url}/api/v1/tools/${name}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify(args),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
    return body.result;
  };
  const { connection } = await call("connect_storage", {
    provider: "s3",
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
  const pids = serverProcessIds(server.port, server.dataDir);
  const memoryBefore = await memory(server.url);
  const rssBefore = rssBytes(pids);
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pids))), 50);
  const serverCpu = cpuSeconds(pids);
  const fakeCpu = cpuSeconds([s3.pid]);
  const started = performance.now();
  const { run } = await call("import_files", { connectionId: connection.id, paths: ["bench/"] });
  let summary: { importedCount: number; failedCount: number; skippedCount: number; duplicateCount: number } = run;
  // The newest run of the bench's own workspace, without its items: polling the 200 items (and their uploads) every
  // 200 ms cost the server CPU the import needed.
  const pollRun = async (until: (r: { status: string; transferredAt: string | null }) => boolean) => {
    for (;;) {
      const [current] = (await call("list_import_runs", { limit: 1 })).runs;
      if (current.id !== run.id) throw new Error(`the newest import run is ${current.id}, not the bench's ${run.id}`);
      summary = current;
      if (until(current)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await pollRun((r) => r.transferredAt !== null || r.status !== "running");
  const serviceMs = performance.now() - started;
  const importPeak = Math.max(peak, rssBytes(pids));
  const importServerCpu = cpuSeconds(pids) - serverCpu;
  const memoryImported = await memory(server.url);
  const importFakeCpu = cpuSeconds([s3.pid]) - fakeCpu;

  await pollRun((r) => r.status !== "running");
  const completedMs = performance.now() - started;
  // The upload jobs: each imported file ends with its two thumbnails, the small one last.
  const mediaDir = path.join(server.dataDir, "media");
  let thumbnails = 0;
  while ((thumbnails = countSmallThumbnails(mediaDir)) < summary.importedCount && performance.now() - started < SETTLE_TIMEOUT_MS) {
    await new Promise((r) => setTimeout(r, 500));
  }
  const settledMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(pids));
  const settledServerCpu = cpuSeconds(pids) - serverCpu;
  const memorySettled = await memory(server.url);

  const after = await baseline();
  const baselineMs = (before.ms + after.ms) / 2;

  const mbps = (ms: number) => totalBytes / MB / (ms / 1000);
  const cpu = (s: number) => `${s.toFixed(1)} CPU-s`;
  console.log(
    `items: ${summary.importedCount} imported, ${summary.skippedCount} skipped, ${summary.failedCount} failed, ${summary.duplicateCount} near-duplicates; upload jobs finished: ${thumbnails}`,
  );
  for (const [label, b] of [
    ["before", before],
    ["after", after],
  ] as const) {
    console.log(
      `baseline ${label.padEnd(6)} (GetObject -> file, ${CONCURRENCY} at a time)  ${mbps(b.ms).toFixed(0).padStart(5)} MB/s   client ${cpu(b.clientCpu)}, S3 fake ${cpu(b.fakeCpu)}`,
    );
  }
  console.log(
    `import_files (bucket -> media storage)             ${mbps(serviceMs).toFixed(0).padStart(5)} MB/s   server ${cpu(importServerCpu)}, S3 fake ${cpu(importFakeCpu)}`,
  );
  console.log(`until the run completed (near-duplicates checked)  ${(completedMs / 1000).toFixed(1).padStart(5)} s`);
  console.log(`until the upload jobs settled                      ${(settledMs / 1000).toFixed(1).padStart(5)} s      server ${cpu(settledServerCpu)} in all`);
  console.log(`throughput ratio import ÷ baseline (mean of both): ${(baselineMs / serviceMs).toFixed(2)} (target ≥ 0.80)`);
  console.log(
    `server peak RSS growth: ${((importPeak - rssBefore) / MB).toFixed(1)} MB while importing (target < 64 MB), ${((peak - rssBefore) / MB).toFixed(1)} MB until the upload jobs settled (${pids.length} processes sampled)`,
  );
  console.log(`server memory before: ${showMemory(memoryBefore)}`);
  console.log(`  once imported:      ${showMemory(memoryImported)}`);
  console.log(`  once jobs settled:  ${showMemory(memorySettled)}`);
} finally {
  await stop();
  await s3.close();
}
