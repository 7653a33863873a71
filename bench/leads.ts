/**
 * npm run bench:leads [-- --db postgres] [-- --count N]
 * 1. Ingest: the sandbox's lead form gets N submissions (default 50,000), then `admin leads pull`
 *    (the scheduled job's poll: at most 1,000 per form per poll, pages of 250, each page stored with its
 *    lead.received events in one transaction) runs until nothing is left: rate per second and the
 *    server's RSS growth.
 * 2. Export: GET /api/v1/leads/export.csv of 5,000 leads (after one warm-up export of them: the first
 *    export of a process loads code and fills caches) and of all N, read as they stream,
 *    while the server's live memory is sampled after forced full collections (`admin server memory`;
 *    the server runs with --expose-gc): the ratio of their peak growths (flat memory: near 1, while the
 *    file is 10 times larger). RSS is printed too, but it also counts garbage the collector has not
 *    reached yet, so its peak says when the collector ran rather than what the export holds.
 * The scheduled poll is off and the sandbox's call limit lifted, so the figures measure the pull path.
 */
import { sendAdminCommand } from "@/lib/admin/socket-client";
import { benchTenant, rssBytes, serverProcessIds, startBenchServer } from "./lib";

const MB = 1024 * 1024;
const count = process.argv.includes("--count") ? Number(process.argv[process.argv.indexOf("--count") + 1]) : 50_000;
const BASELINE = 5_000;

// --expose-gc lets `admin server memory` collect before it measures (live memory, not pending garbage).
const { server, db, stop } = await startBenchServer({
  LEADS_POLL: "0",
  RATE_LIMIT_PER_MINUTE: "100000000",
  SANDBOX_ADS_CALLS_PER_SECOND: "1000000",
  NODE_OPTIONS: "--expose-gc",
});
const pids = serverProcessIds(server.port, server.dataDir);
if (!pids.length) throw new Error("could not find the server's processes in /proc");

async function admin(argv: string[]): Promise<any> {
  const { ok, body } = await sendAdminCommand(server.dataDir, argv);
  if (!ok) throw new Error(`${argv.join(" ")}: ${JSON.stringify(body)}`);
  return body;
}

/** Seeds `n` submissions (in chunks, like several hours of a busy form) and pulls until none is left. */
async function ingest(
  workspaceId: string,
  n: number,
): Promise<{ stored: number; polls: number; ms: number; seedMs: number; rss: { before: number; peak: number; after: number } }> {
  const seedStart = performance.now();
  for (let left = n; left > 0; left -= 25_000) await admin(["sandbox", "leads", "--workspace", workspaceId, "--count", String(Math.min(left, 25_000))]);
  const seedMs = performance.now() - seedStart;
  // RSS from here: the pull alone (the seeding above is the sandbox platform's work, in the same process).
  const rss = { before: rssBytes(pids), peak: 0, after: 0 };
  rss.peak = rss.before;
  const timer = setInterval(() => (rss.peak = Math.max(rss.peak, rssBytes(pids))), 100);
  const start = performance.now();
  let stored = 0;
  let polls = 0;
  for (;;) {
    const pull = await admin(["leads", "pull", "--workspace", workspaceId]);
    polls++;
    stored += pull.stored;
    if (pull.stored === 0) break;
  }
  const ms = performance.now() - start;
  clearInterval(timer);
  rss.after = rssBytes(pids);
  rss.peak = Math.max(rss.peak, rss.after);
  return { stored, polls, ms, seedMs, rss };
}

/** The server's live memory (heap in use plus buffers outside it) right after a full collection. */
async function liveBytes(): Promise<number> {
  const m = await admin(["server", "memory"]);
  if (!m.collected) throw new Error("the server was not started with --expose-gc");
  return m.heapUsed + m.external;
}

/**
 * Reads the export as it streams, sampling the server's live memory (after a forced full collection,
 * so garbage the collector has not reached yet does not count) back to back, and its RSS every 50 ms.
 */
async function exportAll(key: string, label: string): Promise<{ rows: number; bytes: number; ms: number; liveGrowth: number; rssGrowth: number }> {
  const liveBefore = await liveBytes();
  const rssBefore = rssBytes(pids);
  const live: number[] = [];
  const rss: number[] = [];
  let sampling = true;
  const liveSampler = (async () => {
    while (sampling) {
      live.push((await liveBytes()) - liveBefore);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const rssTimer = setInterval(() => rss.push(rssBytes(pids) - rssBefore), 50);
  const start = performance.now();
  const res = await fetch(`${server.url}/api/v1/leads/export.csv`, { headers: { Authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let newlines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
  }
  const ms = performance.now() - start;
  sampling = false;
  clearInterval(rssTimer);
  await liveSampler;
  const liveGrowth = Math.max(0, ...live);
  const rssGrowth = Math.max(0, ...rss);
  const every = Math.max(1, Math.floor(live.length / 10));
  console.log(
    `${label.padEnd(22)} ${String(newlines - 1).padStart(7)} rows  ${(bytes / MB).toFixed(1).padStart(6)} MB  ${(ms / 1000).toFixed(1).padStart(5)} s  ` +
      `live memory growth during the stream (MB): ${live
        .filter((_, i) => i % every === 0)
        .map((s) => (s / MB).toFixed(1))
        .join(" ")}  peak ${(liveGrowth / MB).toFixed(1)}; RSS peak growth ${(rssGrowth / MB).toFixed(1)}`,
  );
  return { rows: newlines - 1, bytes, ms, liveGrowth, rssGrowth };
}

try {
  console.log(`bench:leads on ${db}, ${count.toLocaleString("en-US")} submissions (${pids.length} server processes sampled)\n`);
  const big = await benchTenant(server);
  const run = await ingest(big.workspaceId, count);
  const { before: rssBefore, peak, after: rssAfter } = run.rss;
  if (run.stored !== count) throw new Error(`stored ${run.stored} of ${count}`);
  console.log(`seeded ${count.toLocaleString("en-US")} sandbox submissions in ${(run.seedMs / 1000).toFixed(1)} s`);
  console.log(
    `ingested ${run.stored.toLocaleString("en-US")} leads in ${(run.ms / 1000).toFixed(1)} s over ${run.polls} polls: ` +
      `${((run.stored / run.ms) * 1000).toFixed(0)} leads/s (each with its lead.received event)`,
  );
  console.log(
    `server RSS during the pull: ${(rssBefore / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB, ${(rssAfter / MB).toFixed(0)} MB after: growth ${((peak - rssBefore) / MB).toFixed(1)} MB peak, ${((rssAfter - rssBefore) / MB).toFixed(1)} MB retained\n`,
  );

  const small = await benchTenant(server);
  await ingest(small.workspaceId, BASELINE);
  // The first export of a process also loads its code paths and fills its caches: measured apart.
  await exportAll(small.key, `warm-up ${BASELINE.toLocaleString("en-US")}`);
  const base = await exportAll(small.key, `export ${BASELINE.toLocaleString("en-US")}`);
  const all = await exportAll(big.key, `export ${count.toLocaleString("en-US")}`);
  if (all.rows !== count || base.rows !== BASELINE) throw new Error(`export rows: ${all.rows} / ${base.rows}`);
  const floor = 2 * MB; // one batch of 1,000 rows in flight is about 1.5 MB: below this is noise
  console.log(
    `\npeak live memory growth while streaming: ${(all.liveGrowth / MB).toFixed(1)} MB for ${count.toLocaleString("en-US")} vs ${(base.liveGrowth / MB).toFixed(1)} MB ` +
      `for ${BASELINE.toLocaleString("en-US")}: ratio ${(Math.max(all.liveGrowth, floor) / Math.max(base.liveGrowth, floor)).toFixed(2)} (${(all.bytes / base.bytes).toFixed(1)}x the bytes; ` +
      `flat memory keeps the ratio near 1). RSS, which also counts garbage not yet collected: ${(all.rssGrowth / MB).toFixed(1)} vs ${(base.rssGrowth / MB).toFixed(1)} MB.`,
  );
} finally {
  await stop();
}
