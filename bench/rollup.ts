/**
 * npm run bench:rollup [-- --db postgres]
 * The hourly performance rollup (lib/performance/rollup.ts, what the Inngest function and
 * `admin performance rollup` run) for one workspace with 200 and with 2,000 active ads on the
 * sandbox platform, each with 30 days of delivery history:
 *   - the first rollup (reads the whole 30 days: 6,000 / 60,000 ad-days, labels every creative),
 *   - the next hour's rollup (incremental: re-reads only the current day).
 * Prints seconds and the cost per ad; target: per-ad cost at 2,000 no more than 1.2x that at 200,
 * and the 2,000-ad rollup well inside one minute.
 * In-process against a fresh database (PGlite by default); the sandbox objects are written
 * directly (setup, not measured), the rollup reads them through the platform adapter.
 */
import { tempDataDir } from "../tests/helpers/server";
import { startPostgres } from "../tests/helpers/postgres";

const db = process.argv.includes("--db") ? process.argv[process.argv.indexOf("--db") + 1]! : "pglite";
process.env.DATA_DIR = tempDataDir("bench-rollup");
process.env.SANDBOX_ADS_CALLS_PER_SECOND = "1000000";
const pg = db === "postgres" ? await startPostgres() : undefined;
if (pg) process.env.DATABASE_URL = await pg.createDatabase("bench_rollup");
else delete process.env.DATABASE_URL;

const { createServices, disposeServices } = await import("@/lib/services");
createServices();
const { ensureMigrated } = await import("@/lib/db/migrate-configured");
await ensureMigrated();
const { advanceSandbox } = await import("@/lib/platforms/sandbox/operator");
const { workspaceWith } = await import("../tests/performance/many-ads");
const { runRollup } = await import("@/lib/performance/rollup");

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const out = await run();
  return [out, (performance.now() - started) / 1000];
}

const results: { ads: number; first: number; hourly: number; rows: number; changes: number }[] = [];
try {
  for (const ads of [200, 2000]) {
    const workspaceId = await workspaceWith(ads);
    const [first, firstSeconds] = await timed(() => runRollup({ workspaceId }));
    await advanceSandbox(workspaceId, 1);
    const [, hourlySeconds] = await timed(() => runRollup({ workspaceId }));
    const rows = first.accounts.reduce((s, a) => s + (a.ok ? a.rows : 0), 0);
    const changes = first.workspaces.reduce((s, w) => s + w.changes.length, 0);
    results.push({ ads, first: firstSeconds, hourly: hourlySeconds, rows, changes });
    console.log(
      `${String(ads).padStart(5)} ads  first rollup (30 days, ${rows} ad-days, ${changes} label changes) ${firstSeconds.toFixed(2).padStart(6)} s  ${((firstSeconds / ads) * 1000).toFixed(2).padStart(6)} ms/ad` +
        `   next hour ${hourlySeconds.toFixed(2).padStart(6)} s  ${((hourlySeconds / ads) * 1000).toFixed(2).padStart(6)} ms/ad`,
    );
  }
  const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
  const ratio = large.first / large.ads / (small.first / small.ads);
  const hourlyRatio = large.hourly / large.ads / (small.hourly / small.ads);
  console.log(`database: ${db}`);
  console.log(`per-ad cost ratio 2,000 / 200: first rollup ${ratio.toFixed(2)} (target <= 1.2), next hour ${hourlyRatio.toFixed(2)}`);
  console.log(`2,000-ad rollup: ${large.first.toFixed(2)} s (target: well inside 60 s)`);
} finally {
  await disposeServices();
  await pg?.stop();
}
process.exit(0);
