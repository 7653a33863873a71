/**
 * npm run bench:webhooks [-- --db postgres] [-- --rate R] [-- --events N] [-- --via api] [-- --concurrency C]
 * Emits N events (default 10,000) to a receiver on loopback, against the production server, and
 * prints deliveries per second, event-to-receipt p50/p99 (event createdAt to the moment the
 * receiver has the body), and events lost or received twice.
 * Default: the server emits them itself at R per second (default 1,000; `admin webhooks load-test`,
 * the same emitEvent as every domain event), the emit rate being the baseline of the same run.
 * `--via api`: C (default 16) clients emit through POST /api/v1/webhooks/test as fast as it
 * accepts them (the figure of earlier runs; on 2 cores the API, not delivery, is then the limit).
 * Before the measured run, W events (`--warmup W`, default 3,000; 0 for none) go the same way at
 * the same rate: a freshly started server runs its delivery path unoptimized (V8 and the embedded
 * database's WebAssembly tier up as they run hot), which cost the first ~3 s of a cold run 100-250 ms
 * of latency. A server in service is past that, so the measured run is too; the warm-up's own
 * figures are printed as well.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sendAdminCommand } from "@/lib/admin/socket-client";
import { benchTenant, cpuSeconds, serverProcessIds, startBenchServer } from "./lib";

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const VIA_API = process.argv.includes("--via") && process.argv[process.argv.indexOf("--via") + 1] === "api";
const EVENTS = arg("--events", VIA_API ? 3000 : 10_000);
const RATE = arg("--rate", 1000);
const CONCURRENCY = arg("--concurrency", 16);
const WARMUP = arg("--warmup", 3000);
let duplicates = 0;

const receipts = new Map<string, number>();
const eventTimes = new Map<string, number>();
let lastReceipt = 0;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = Date.now();
    const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; createdAt: string };
    if (!receipts.has(event.id)) {
      receipts.set(event.id, at);
      eventTimes.set(event.id, Date.parse(event.createdAt));
      lastReceipt = at;
    } else duplicates++;
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000" });
try {
  const { key, workspaceId } = await benchTenant(server);
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const put = await fetch(`${server.url}/api/v1/webhooks`, { method: "PUT", headers, body: JSON.stringify({ url: receiverUrl }) });
  if (put.status !== 201) throw new Error(`PUT /api/v1/webhooks answered ${put.status}: ${await put.text()}`);

  // Warm up the route and the delivery path, then start clean.
  for (let i = 0; i < 20; i++) await fetch(`${server.url}/api/v1/webhooks/test`, { method: "POST", headers });
  while (receipts.size < 20) await new Promise((r) => setTimeout(r, 50));
  const pids = serverProcessIds(server.port, server.dataDir);

  /** Emits `events` (through the API or in the server) and waits until the receiver has them all, or 10 minutes. */
  async function run(events: number) {
    receipts.clear();
    eventTimes.clear();
    duplicates = 0;
    const cpuBefore = cpuSeconds(pids);
    const started = Date.now();
    let sent = 0;
    let failed = 0;
    if (VIA_API) {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (sent < events) {
            sent++;
            const res = await fetch(`${server.url}/api/v1/webhooks/test`, { method: "POST", headers });
            if (res.status !== 202) failed++;
            await res.arrayBuffer();
          }
        }),
      );
    } else {
      const { ok, body } = await sendAdminCommand(server.dataDir, [
        "webhooks",
        "load-test",
        "--workspace",
        workspaceId,
        "--count",
        String(events),
        "--rate",
        String(RATE),
      ]);
      if (!ok) throw new Error(`load-test failed: ${JSON.stringify(body)}`);
    }
    const emitted = Date.now();
    const deadline = emitted + 600_000;
    while (receipts.size < events - failed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const cpuUsed = cpuSeconds(pids) - cpuBefore;
    await new Promise((r) => setTimeout(r, 1000)); // late duplicates
    const latencies = [...receipts.entries()].map(([id, at]) => at - eventTimes.get(id)!).sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    return {
      emitRate: events / ((emitted - started) / 1000),
      deliveryRate: receipts.size / ((lastReceipt - started) / 1000),
      p50: pct(50),
      p99: pct(99),
      cpuUsed,
      received: receipts.size,
      lost: events - failed - receipts.size,
      twice: duplicates,
      failed,
    };
  }

  const warm = WARMUP > 0 ? await run(WARMUP) : null;
  const r = await run(EVENTS);
  const how = VIA_API ? `${CONCURRENCY} concurrent emitters on POST /api/v1/webhooks/test` : `emitted in the server at ${RATE}/s`;
  console.log(`\nbench:webhooks — database ${db}, ${EVENTS} events, ${how}`);
  if (warm) {
    console.log(
      `warm-up, not counted: ${WARMUP} events the same way on the fresh server: ${warm.deliveryRate.toFixed(0)} deliveries/s, p50 ${warm.p50} ms, p99 ${warm.p99} ms, lost ${warm.lost}`,
    );
  }
  console.log(`emitted                                ${r.emitRate.toFixed(0).padStart(6)} events/s   (baseline: the emit path alone)`);
  console.log(`delivered to the receiver              ${r.deliveryRate.toFixed(0).padStart(6)} deliveries/s   (target ≥ 1000)`);
  console.log(`event-to-receipt latency               p50 ${r.p50} ms   p99 ${r.p99} ms   (target p99 < 250)`);
  console.log(`ratio delivered ÷ emitted: ${(r.deliveryRate / r.emitRate).toFixed(2)}`);
  console.log(
    `server CPU ${r.cpuUsed.toFixed(1)} s = ${((r.cpuUsed * 1000) / Math.max(1, r.received)).toFixed(2)} ms per event emitted and delivered (load-independent)`,
  );
  console.log(`lost ${r.lost}, received twice ${r.twice}, emits failed ${r.failed}`);
} finally {
  await stop();
  receiver.close();
}
process.exit(0);
