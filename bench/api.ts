/**
 * npm run bench:api [-- --db postgres] [-- --seconds N]
 * Authenticated GET /api/v1/me at 32 connections against a bare route handler
 * returning fixed JSON in the same build, measured in the same run.
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
  await load(`${server.url}/api/v1/me`, { connections: CONNECTIONS, seconds: 2, headers: auth });

  const baseline = await load(`${server.url}/api/bench/fixed`, { connections: CONNECTIONS, seconds });
  const me = await load(`${server.url}/api/v1/me`, { connections: CONNECTIONS, seconds, headers: auth });
  console.log(`\nbench:api — database ${db}, ${CONNECTIONS} connections, ${seconds} s each`);
  console.log(row("bare route (fixed JSON)", baseline));
  console.log(row("GET /api/v1/me (authenticated)", me));
  const ratio = me.requestsPerSecond / baseline.requestsPerSecond;
  console.log(`ratio /me ÷ bare: ${ratio.toFixed(2)} (target ≥ 0.95)`);
  if (me.non2xx || baseline.non2xx) console.log("warning: some requests failed; the figures are not comparable");
} finally {
  await stop();
}
process.exit(0);
