import fs from "node:fs";
import autocannon from "autocannon";
import { buildIfStale } from "../scripts/build-if-stale.mjs";
import { sendAdminCommand } from "@/lib/admin/socket-client";
import { startPostgres } from "../tests/helpers/postgres";
import { startServer, type TestServer } from "../tests/helpers/server";

/**
 * Starts the production server for a benchmark on the database named by --db (pglite default).
 * BENCH_CPU_PROF=<dir>: the server's processes write V8 CPU profiles there when they exit (node --cpu-prof).
 * stop() removes the server's data directory.
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<{ server: TestServer; db: string; stop(): Promise<void> }> {
  buildIfStale();
  const profileDir = process.env.BENCH_CPU_PROF;
  if (profileDir) env = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --cpu-prof --cpu-prof-dir=${profileDir}`.trim(), ...env };
  const db = process.argv.includes("--db") ? process.argv[process.argv.indexOf("--db") + 1]! : "pglite";
  const pg = db === "postgres" ? await startPostgres() : undefined;
  const server = await startServer({ env: { ADLOOM_BENCH: "1", ...env }, databaseUrl: pg ? await pg.createDatabase("bench") : undefined });
  const stop = async () => {
    await server.stop();
    await pg?.stop();
    // The server's DATA_DIR (its media: 2 GB after bench:import) goes with it.
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  };
  return { server, db, stop };
}

/**
 * BENCH_MARKS=<file>: appends "<label> <start ns> <end ns> <count>" for a timed phase (a request, a load round),
 * on the monotonic clock that V8's CPU profiles and `perf … -k CLOCK_MONOTONIC` traces use, so a profile can be
 * cut to the bench's windows: `npx tsx bench/support/profile-windows.ts <profile> <marks> <label> [<other label>]`.
 */
export function markWindow(label: string, startNs: bigint, count = 1): void {
  const file = process.env.BENCH_MARKS;
  if (file) fs.appendFileSync(file, `${label} ${startNs} ${process.hrtime.bigint()} ${count}\n`);
}

export async function benchTenant(server: TestServer): Promise<{ key: string; workspaceId: string }> {
  const admin = async (argv: string[]) => {
    const { ok, body } = await sendAdminCommand(server.dataDir, argv);
    if (!ok) throw new Error(JSON.stringify(body));
    return body as Record<string, string>;
  };
  const { workspaceId, ownerUserId } = await admin(["workspace", "create", "--name", "Bench"]);
  const { key } = await admin(["key", "create", "--workspace", workspaceId, "--user", ownerUserId!]);
  return { key: key!, workspaceId: workspaceId! };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** Drives one URL at a fixed number of connections for a while (autocannon). */
export async function load(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers: options.headers });
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

export function row(label: string, r: LoadResult): string {
  return `${label.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   errors ${r.non2xx}`;
}

/**
 * The Next server's processes: everything started with PORT=<port> and DATA_DIR=<dir>
 * (its process title hides the command line), minus the scripts/start.mjs wrapper.
 */
export function serverProcessIds(port: number, dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (env.includes(`PORT=${port}`) && env.includes(`DATA_DIR=${dataDir}`) && !cmdline.includes("scripts/start.mjs")) pids.push(Number(entry));
    } catch {
      /* exited, or not ours to read */
    }
  }
  return pids;
}

export function rssBytes(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      total += kb * 1024;
    } catch {
      /* exited */
    }
  }
  return total;
}

/** CPU-seconds (user + system) the processes have used so far, from /proc (independent of the machine's load). */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* exited */
    }
  }
  return ticks / 100; // USER_HZ
}
