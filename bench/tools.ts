/**
 * npm run bench:tools [-- --db postgres] [-- --seconds N]
 * The overhead of calling a read-only tool (POST /api/v1/tools/{name}) over the equivalent
 * REST route, measured in the same run on the same server: GET /api/v1/me vs get_account,
 * and GET /api/v1/creatives?limit=20 vs list_creatives {limit: 20} over 20 seeded creatives.
 * Ratio = time per tool call ÷ time per REST call (target ≤ 1.05); each side runs twice, A-B-B-A.
 * Also, without a target, get_account over MCP (POST /api/mcp, tools/call) against GET /api/v1/me.
 * Beside each throughput ratio, the server's own CPU time per call (/proc), which the load generator
 * sharing the machine's cores does not blur.
 */
import autocannon from "autocannon";
import sharp from "sharp";
import { benchTenant, cpuSeconds, type LoadResult, markWindow, row, serverProcessIds, startBenchServer } from "./lib";

const CONNECTIONS = 16;
const seconds = process.argv.includes("--seconds") ? Number(process.argv[process.argv.indexOf("--seconds") + 1]) : 8;

type Measured = LoadResult & { cpuSeconds: number; requests: number };

let serverPids: number[] = [];

async function drive(url: string, headers: Record<string, string>, body?: unknown, duration = seconds): Promise<Measured> {
  const cpuBefore = cpuSeconds(serverPids);
  const startedAt = process.hrtime.bigint();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  markWindow(`${body === undefined ? "GET" : "POST"}:${new URL(url).pathname}`, startedAt, result.requests.total);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    cpuSeconds: cpuSeconds(serverPids) - cpuBefore,
    requests: result.requests.total,
  };
}

/** Mean throughput, worst latencies, all errors and the server's CPU per request of several rounds. */
function combine(results: Measured[]): LoadResult & { cpuMicrosPerRequest: number } {
  return {
    cpuMicrosPerRequest: (results.reduce((sum, r) => sum + r.cpuSeconds, 0) * 1e6) / results.reduce((sum, r) => sum + r.requests, 0),
    requestsPerSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0) / results.length,
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

async function seedCreatives(baseUrl: string, key: string, count: number): Promise<void> {
  const form = new FormData();
  for (let i = 0; i < count; i++) {
    const png = await sharp({ create: { width: 8 + i, height: 8, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), `bench-${i}.png`);
  }
  const res = await fetch(`${baseUrl}/api/v1/uploads`, { method: "POST", headers: { Authorization: `Bearer ${key}` }, body: form });
  if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  for (let tries = 0; tries < 300; tries++) {
    const list = await (await fetch(`${baseUrl}/api/v1/creatives?limit=200`, { headers: { Authorization: `Bearer ${key}` } })).json();
    if (list.creatives?.length >= count) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("seeded creatives did not appear");
}

const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000" });
try {
  const { key } = await benchTenant(server);
  const auth = { Authorization: `Bearer ${key}` };
  await seedCreatives(server.url, key, 20);
  serverPids = serverProcessIds(server.port, server.dataDir);
  if (!serverPids.length) throw new Error("could not find the server's processes in /proc");
  const mcpHeaders = { ...auth, Accept: "application/json, text/event-stream" };
  const pairs = [
    {
      rest: ["GET /api/v1/me", `${server.url}/api/v1/me`, undefined, auth],
      tool: ["tool get_account", `${server.url}/api/v1/tools/get_account`, {}, auth],
      target: true,
    },
    {
      rest: ["GET /api/v1/creatives?limit=20", `${server.url}/api/v1/creatives?limit=20`, undefined, auth],
      tool: ["tool list_creatives {limit:20}", `${server.url}/api/v1/tools/list_creatives`, { limit: 20 }, auth],
      target: true,
    },
    {
      // The same tool over MCP: JSON-RPC, a server per stateless request and the answer framed as an event stream.
      rest: ["GET /api/v1/me", `${server.url}/api/v1/me`, undefined, auth],
      tool: [
        "MCP tools/call get_account",
        `${server.url}/api/mcp`,
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_account", arguments: {} } },
        mcpHeaders,
      ],
      target: false,
    },
  ] as const;
  // Warm every path (JIT, route bundles, connection pools).
  for (const p of pairs) for (const [, url, body, headers] of [p.rest, p.tool]) await drive(url, headers, body, 2);

  console.log(`\nbench:tools — database ${db}, ${CONNECTIONS} connections, ${seconds} s each`);
  let worst = 0;
  for (const p of pairs) {
    // Rounds in A-B-B-A order, so load from anything else on the machine drifts onto both sides alike.
    const rounds: { rest: Measured[]; tool: Measured[] } = { rest: [], tool: [] };
    for (const order of [
      ["rest", "tool"],
      ["tool", "rest"],
    ] as const) {
      for (const side of order) rounds[side].push(await drive(p[side][1], p[side][3], p[side][2], seconds / 2));
    }
    const rest = combine(rounds.rest);
    const tool = combine(rounds.tool);
    const ratio = rest.requestsPerSecond / tool.requestsPerSecond;
    if (p.target) worst = Math.max(worst, ratio);
    console.log(row(p.rest[0], rest));
    console.log(row(p.tool[0], tool));
    console.log(`overhead ${p.tool[0]} ÷ ${p.rest[0]}: ${ratio.toFixed(2)} (${p.target ? "target ≤ 1.05" : "no target: another protocol"})`);
    console.log(
      `server CPU per call: ${rest.cpuMicrosPerRequest.toFixed(0)} µs REST, ${tool.cpuMicrosPerRequest.toFixed(0)} µs tool, ratio ${(tool.cpuMicrosPerRequest / rest.cpuMicrosPerRequest).toFixed(2)}\n`,
    );
    if (rest.non2xx || tool.non2xx) console.log("warning: some requests failed; the figures are not comparable");
  }
  console.log(`worst overhead ratio of a tool call over REST: ${worst.toFixed(2)} (target ≤ 1.05)`);
} finally {
  await stop();
}
process.exit(0);
