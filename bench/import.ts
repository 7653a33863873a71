/**
 * npm run bench:import [-- --db postgres]
 * IMPORT_BENCH_FILES (default 200) noise PNGs of IMPORT_BENCH_FILE_MB (default 10: 2 GB in all) are put
 * into a local S3-compatible server (s3rver), then, in one run:
 *   baseline  a plain streamed copy from the same bucket to files on the same disk as the server's
 *             media storage (GetObject -> file, 4 at a time, as the import job runs 4 at a time);
 *   service   import_files of all the keys, timed until every item has been transferred.
 * Prints the throughput ratio (target >= 0.8) and the server's peak RSS growth (target < 64 MB).
 * The upload jobs the imported files start afterwards (push to the sandbox account, probe) run while
 * later files are still transferring, as they would in production.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { startS3Fake } from "../tests/helpers/s3-fake";
import { benchTenant, rssBytes, serverProcessIds, startBenchServer } from "./lib";

const MB = 1024 * 1024;
const FILES = Number(process.env.IMPORT_BENCH_FILES ?? 200);
const FILE_MB = Number(process.env.IMPORT_BENCH_FILE_MB ?? 10);
const CONCURRENCY = 4;

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

const s3 = await startS3Fake(`bench-import-${Date.now()}`);
const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000" });
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
  const copyDir = fs.mkdtempSync(path.join(server.dataDir, "baseline-"));
  const baselineStarted = performance.now();
  await inParallel(keys, CONCURRENCY, async (key) => {
    const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    await pipeline(object.Body as Readable, fs.createWriteStream(path.join(copyDir, path.basename(key))));
  });
  const baselineMs = performance.now() - baselineStarted;
  fs.rmSync(copyDir, { recursive: true, force: true });

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
  const rssBefore = rssBytes(pids);
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pids))), 50);
  const started = performance.now();
  const { run } = await call("import_files", { connectionId: connection.id, paths: ["bench/"] });
  let summary: { importedCount: number; failedCount: number; skippedCount: number } = run;
  for (;;) {
    const [current] = (await call("list_import_runs", { limit: 1, runId: run.id })).runs;
    summary = current;
    if (current.status !== "running") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const serviceMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(pids));

  const mbps = (ms: number) => totalBytes / MB / (ms / 1000);
  console.log(`items: ${summary.importedCount} imported, ${summary.skippedCount} skipped, ${summary.failedCount} failed`);
  console.log(`baseline (GetObject -> file, ${CONCURRENCY} at a time)  ${mbps(baselineMs).toFixed(0).padStart(6)} MB/s`);
  console.log(`import_files (bucket -> media storage)   ${mbps(serviceMs).toFixed(0).padStart(6)} MB/s`);
  console.log(`throughput ratio import ÷ baseline: ${(baselineMs / serviceMs).toFixed(2)} (target ≥ 0.80)`);
  console.log(`server peak RSS growth while importing: ${((peak - rssBefore) / MB).toFixed(1)} MB (target < 64 MB; ${pids.length} processes sampled)`);
} finally {
  await stop();
  await s3.close();
}
