/**
 * npm run bench:api [-- --db postgres] [-- --seconds N]
 * Authenticated GET /api/v1/me at 32 connections against a bare route handler
 * returning fixed JSON in the same build, measured in the same run (the target's baseline);
 * also against a bare Pages API route, the least Next.js does for an API request, which
 * /api/v1 is served as (lib/http/pages-api.ts).
 */
import { benchTenant, load, row, startBenchServer } from "./lib";

const CONNECTIONS = 32;
const seconds = process.argv.includes("--seconds") ? Number(process.argv[process.argv.indexOf("--seconds") + 1]) : 10;

const { server, db, stop } = await startBenchServer({ RATE_LIMIT_PER_MINUTE: "100000000" });
try {
  const { key } = await benchTenant(server);
  const auth = { Authorization: `Bearer ${key}` };
  // Warm both paths (JIT, route compilation caches, connection pools).
  await load(`${server.url}/api/bench/fixed`, { connections: CONNECTIONS, seconds: 2 });
  await load(`${server.url}/api/bench/pages-fixed`, { connections: CONNECTIONS, seconds: 2 });
  await load(`${server.url}/api/v1/me`, { connections: CONNECTIONS, seconds: 2, headers: auth });

  const baseline = await load(`${server.url}/api/bench/fixed`, { connections: CONNECTIONS, seconds });
  const me = await load(`${server.url}/api/v1/me`, { connections: CONNECTIONS, seconds, headers: auth });
  const pagesBaseline = await load(`${server.url}/api/bench/pages-fixed`, { connections: CONNECTIONS, seconds });
  console.log(`\nbench:api — database ${db}, ${CONNECTIONS} connections, ${seconds} s each`);
  console.log(row("bare route handler (fixed JSON)", baseline));
  console.log(row("GET /api/v1/me (authenticated)", me));
  console.log(row("bare Pages API route (fixed JSON)", pagesBaseline));
  console.log(`ratio /me ÷ bare route handler: ${(me.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)} (target ≥ 0.95)`);
  console.log(
    `ratio /me ÷ bare Pages API route: ${(me.requestsPerSecond / pagesBaseline.requestsPerSecond).toFixed(2)} (no target: what authentication, the pipeline and the answer cost over Next's least)`,
  );
  if (me.non2xx || baseline.non2xx || pagesBaseline.non2xx) console.log("warning: some requests failed; the figures are not comparable");
} finally {
  await stop();
}
process.exit(0);
