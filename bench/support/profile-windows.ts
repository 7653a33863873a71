/**
 * Where a server's CPU went during a bench's timed windows, per request:
 *   npx tsx bench/support/profile-windows.ts <profile.cpuprofile> <marks file> <label> [<other label>] [--inclusive] [--top N] [--min-count N]
 * The profile comes from `BENCH_CPU_PROF=<dir>` (one file per thread: the largest is usually the main thread), the
 * marks from `BENCH_MARKS=<file>` in the same run (bench/lib.ts `markWindow`). Only the samples inside the label's
 * windows count, divided by the requests those windows carried. With a second label, each function's time per request
 * under both and the difference, largest first: what one kind of request costs that the other does not.
 * `--inclusive` counts a function's callees too; `--min-count` skips short windows (warm-up rounds).
 * For function names in a production build, build with `experimental.serverMinification: false` (temporarily).
 */
import fs from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const inclusive = args.includes("--inclusive");
const top = option("--top", 30);
const minCount = option("--min-count", 1);
const positional = args.filter((a, i) => !a.startsWith("--") && !["--top", "--min-count"].includes(args[i - 1] ?? ""));
const [profileFile, marksFile, labelA, labelB] = positional;
if (!profileFile || !marksFile || !labelA) {
  console.error("usage: profile-windows.ts <profile.cpuprofile> <marks file> <label> [<other label>] [--inclusive] [--top N] [--min-count N]");
  process.exit(2);
}

const profile = JSON.parse(fs.readFileSync(profileFile, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
const nameOf = (id: number) => {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  return `${functionName || "(anonymous)"} ${url.split("/").at(-1) ?? ""}:${lineNumber + 1}`;
};
// Sample times in µs on the profile's clock (CLOCK_MONOTONIC on Linux), each sample lasting until the next.
const sampleTimes: number[] = [];
let clock = profile.startTime;
for (const delta of profile.timeDeltas) sampleTimes.push((clock += delta));

const windows = (label: string) =>
  fs
    .readFileSync(marksFile, "utf8")
    .split("\n")
    .map((line) => line.split(" "))
    .filter(([l, , , count]) => l === label && Number(count ?? 1) >= minCount)
    .map(([, start, end, count]) => ({ from: Number(BigInt(start!) / 1000n), to: Number(BigInt(end!) / 1000n), count: Number(count ?? 1) }));

/** µs per request for each function within the label's windows, and the busy (non-idle) total. */
function timePerRequest(label: string): { perFunction: Map<string, number>; busy: number; requests: number; windows: number } {
  const spans = windows(label);
  const requests = spans.reduce((sum, w) => sum + w.count, 0);
  const perFunction = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const at = sampleTimes[i]!;
    if (!spans.some((w) => at >= w.from && at <= w.to)) return;
    const duration = (sampleTimes[i + 1] ?? at) - at;
    const names = new Set<string>([nameOf(id)]);
    if (inclusive) for (let p = parentOf.get(id); p !== undefined; p = parentOf.get(p)) names.add(nameOf(p));
    for (const name of names) perFunction.set(name, (perFunction.get(name) ?? 0) + duration);
    if (!nameOf(id).startsWith("(idle)")) busy += duration;
  });
  for (const [name, us] of perFunction) perFunction.set(name, us / Math.max(1, requests));
  return { perFunction, busy: busy / Math.max(1, requests), requests, windows: spans.length };
}

const a = timePerRequest(labelA);
const summary = (label: string, t: typeof a) => `${label}: ${t.windows} windows, ${t.requests} requests, ${t.busy.toFixed(1)} µs busy per request`;
console.log(summary(labelA, a));
const fmt = (us: number) => us.toFixed(1).padStart(9);
if (!labelB) {
  for (const [name, us] of [...a.perFunction].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${fmt(us)}  ${name}`);
} else {
  const b = timePerRequest(labelB);
  console.log(summary(labelB, b));
  console.log(`${labelA.slice(0, 9).padStart(9)} ${labelB.slice(0, 9).padStart(9)}  difference, µs per request`);
  const names = new Set([...a.perFunction.keys(), ...b.perFunction.keys()]);
  const rows = [...names].map((name) => [name, a.perFunction.get(name) ?? 0, b.perFunction.get(name) ?? 0] as const);
  for (const [name, x, y] of rows.sort((p, q) => Math.abs(q[2] - q[1]) - Math.abs(p[2] - p[1])).slice(0, top)) {
    console.log(`${fmt(x)} ${fmt(y)} ${(y - x >= 0 ? "+" : "") + (y - x).toFixed(1)}  ${name}`);
  }
}
