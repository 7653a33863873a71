// `npm run test:cpu [-- <vitest args>]`: the CPU-seconds each test file's own processes used (the servers it starts,
// the operator CLI, tsc, npm...), beside what the shared servers and the vitest workers used, for one vitest run of
// the server projects (or the projects and files named). The suite is bound by CPU on two cores (docs/testing.md),
// so this says where a cut would shorten it.
//
// Linux process accounting counts every process to its exit, short-lived ones included (root, `apt-get install
// acct`); a sampler reads each new process's environment, where tests/setup/tag-test-file.ts left ADLOOM_TEST_FILE
// for the processes a test file starts. A process whose environment could not be read in time takes its parent's file.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const vitestArgs = args.length ? args : ["--project", "integration", "--project", "integration-isolated", "--project", "postgres"];
const work = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-test-cpu-"));
const pacct = path.join(work, "pacct");
fs.writeFileSync(pacct, "");

try {
  execFileSync("accton", [pacct]);
} catch (err) {
  console.error(`process accounting could not start (${err.message}): run as root with acct installed (apt-get install acct)`);
  process.exit(1);
}

const bootTime = Number(/btime (\d+)/.exec(fs.readFileSync("/proc/stat", "utf8"))[1]);
const ticks = 100; // USER_HZ on Linux
/** Every process seen, by "pid:start": its parent, its start (epoch s) and the file tag in its environment. */
const seen = new Map();
function sample() {
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = bootTime + Number(fields[19]) / ticks;
    const key = `${name}:${Math.round(start)}`;
    if (seen.has(key)) continue;
    let tag = null;
    try {
      tag = /(?:^|\0)ADLOOM_TEST_FILE=([^\0]*)/.exec(fs.readFileSync(`/proc/${name}/environ`, "utf8"))?.[1] ?? null;
    } catch {
      // gone already
    }
    seen.set(key, { pid: Number(name), ppid: Number(fields[1]), start, tag });
  }
}
const sampler = setInterval(sample, 150);
sample();

const child = spawn(process.execPath, [path.join(root, "node_modules/vitest/vitest.mjs"), "run", ...vitestArgs], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, ADLOOM_TAG_TEST_FILES: "1" },
});
const vitestPid = child.pid;
const code = await new Promise((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
clearInterval(sampler);
execFileSync("accton", ["off"]);

// dump-acct: command|version|utime|stime|elapsed|uid|gid|mem|io|pid|ppid|flags|exitcode|tty|start
const records = execFileSync("dump-acct", [pacct], { encoding: "utf8", maxBuffer: 1 << 30 })
  .trim()
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    const f = line.split("|").map((x) => x.trim());
    return { comm: f[0], cpu: (Number(f[2]) + Number(f[3])) / ticks, pid: Number(f[9]), ppid: Number(f[10]), start: Date.parse(f[14]) / 1000 };
  });
const byPid = new Map();
for (const p of seen.values()) byPid.set(p.pid, [...(byPid.get(p.pid) ?? []), p]);
/** The sampled process of this pid that started nearest `start` (pids are reused), or its latest one before it. */
const sampled = (pid, start) =>
  (byPid.get(pid) ?? []).filter((p) => p.start <= start + 2).sort((a, b) => Math.abs(a.start - start) - Math.abs(b.start - start))[0];
function tagOf(pid, ppid, start, depth = 0) {
  const own = sampled(pid, start);
  if (own?.tag) return own.tag;
  const parent = own?.ppid ?? ppid;
  if (depth > 8 || !parent || parent <= 1) return null;
  const p = sampled(parent, start);
  return p ? tagOf(p.pid, p.ppid, p.start, depth + 1) : null;
}
/** Whether the process descends from this vitest run (not another job on the machine). */
function inRun(pid, ppid, start, depth = 0) {
  if (pid === vitestPid || ppid === vitestPid) return true;
  const own = sampled(pid, start);
  const parent = own?.ppid ?? ppid;
  if (depth > 8 || !parent || parent <= 1) return false;
  const p = sampled(parent, start);
  return p ? inRun(p.pid, p.ppid, p.start, depth + 1) : false;
}

const perFile = new Map();
const rest = new Map();
let total = 0;
for (const r of records) {
  if (!inRun(r.pid, r.ppid, r.start)) continue;
  total += r.cpu;
  const tag = tagOf(r.pid, r.ppid, r.start);
  const table = tag ? perFile : rest;
  const key = tag ?? (r.comm.startsWith("next-server") ? "shared servers (started by the global setup)" : `${r.comm} (vitest and the rest)`);
  const row = table.get(key) ?? { cpu: 0, processes: 0 };
  row.cpu += r.cpu;
  row.processes += 1;
  table.set(key, row);
}
const print = (title, table, limit) => {
  const rows = [...table].sort((a, b) => b[1].cpu - a[1].cpu);
  const sum = rows.reduce((n, [, r]) => n + r.cpu, 0);
  console.log(`\n${title}: ${sum.toFixed(1)} CPU-s`);
  for (const [key, r] of rows.slice(0, limit)) console.log(`${r.cpu.toFixed(1).padStart(8)}  ${String(r.processes).padStart(4)} proc  ${key}`);
};
console.log(`\nCPU-s of the run's processes: ${total.toFixed(1)} (process accounting)`);
print("started by test files (database:file)", perFile, Number(process.env.TEST_CPU_ROWS ?? 40));
print("the rest", rest, 10);
fs.rmSync(work, { recursive: true, force: true });
process.exit(code);
