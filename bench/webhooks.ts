/**
 * npm run bench:webhooks [-- --db postgres] [-- --events N] [-- --concurrency C]
 * Emits N (default 5,000) events through the real path (POST /api/v1/webhooks/test, which records
 * the event and queues its delivery job) against the production server, to a receiver on
 * loopback. Prints deliveries per second and event-to-receipt p50/p99 (event createdAt to the
 * moment the receiver has the body), and, as the baseline of the same run, how fast the same
 * API path accepted the events.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { benchTenant, startBenchServer } from "./lib";

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const EVENTS = arg("--events", 5000);
const CONCURRENCY = arg("--concurrency", 16);

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
    }
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000" });
try {
  const { key } = await benchTenant(server);
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const put = await fetch(`${server.url}/api/v1/webhooks`, { method: "PUT", headers, body: JSON.stringify({ url: receiverUrl }) });
  if (put.status !== 201) throw new Error(`PUT /api/v1/webhooks answered ${put.status}: ${await put.text()}`);

  // Warm up the route and the job path, then start clean.
  for (let i = 0; i < 20; i++) await fetch(`${server.url}/api/v1/webhooks/test`, { method: "POST", headers });
  while (receipts.size < 20) await new Promise((r) => setTimeout(r, 50));
  receipts.clear();
  eventTimes.clear();

  const started = Date.now();
  let sent = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < EVENTS) {
        sent++;
        const res = await fetch(`${server.url}/api/v1/webhooks/test`, { method: "POST", headers });
        if (res.status !== 202) failed++;
        await res.arrayBuffer();
      }
    }),
  );
  const emitted = Date.now();
  const deadline = emitted + 600_000;
  while (receipts.size < EVENTS - failed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

  const latencies = [...receipts.entries()].map(([id, at]) => at - eventTimes.get(id)!).sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  const emitRate = EVENTS / ((emitted - started) / 1000);
  const deliveryRate = receipts.size / ((lastReceipt - started) / 1000);
  console.log(`\nbench:webhooks — database ${db}, ${EVENTS} events, ${CONCURRENCY} concurrent emitters`);
  console.log(`emitted (POST /api/v1/webhooks/test)   ${emitRate.toFixed(0).padStart(6)} events/s   (baseline: the ingest path alone)`);
  console.log(`delivered to the receiver              ${deliveryRate.toFixed(0).padStart(6)} deliveries/s   (target ≥ 200)`);
  console.log(`event-to-receipt latency               p50 ${pct(50)} ms   p99 ${pct(99)} ms   (target p99 < 2000)`);
  console.log(`ratio delivered ÷ emitted: ${(deliveryRate / emitRate).toFixed(2)}`);
  if (failed || receipts.size < EVENTS) console.log(`warning: ${failed} emits failed, ${EVENTS - receipts.size} events not received`);
} finally {
  await stop();
  receiver.close();
}
process.exit(0);
