import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { seedMigratedDatabase } from "../helpers/database-template";
import { eventually } from "./helpers/wait";

const ROOT = path.resolve(__dirname, "../..");
const WORKER = path.join(__dirname, "fixtures/crash-worker.ts");

function startWorker(role: "first" | "second", env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let output = "";
  // node with tsx's loader rather than the tsx CLI, which would put a second process between us and the worker.
  const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
    cwd: ROOT,
    env: { ...process.env, ...env, WORKER_ROLE: role, DATABASE_URL: "", INNGEST_EVENT_KEY: "", INNGEST_DEV: "", INNGEST_SIGNING_KEY: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

// The worker processes own an embedded database, as the server does by default; the
// PostgreSQL side of restarts is covered through the server by the uploads and webhooks tests.
describe("embedded runner crash recovery", () => {
  it("resumes a run killed mid-step in a new process without repeating finished steps", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-jobs-crash-"));
    await seedMigratedDatabase(dir);
    const env = { DATA_DIR: dir, JOBS_LOG: path.join(dir, "executions.log"), JOBS_MARKER: path.join(dir, "in-step-two") };

    const first = startWorker("first", env);
    try {
      await eventually(async () => fs.existsSync(env.JOBS_MARKER), 45_000, `step two to start (worker output: ${first.output()})`);
    } finally {
      first.child.kill("SIGKILL");
    }
    await first.exited;

    const second = startWorker("second", env);
    const code = await Promise.race([second.exited, new Promise<string>((r) => setTimeout(() => r("timeout"), 45_000))]);
    if (code !== 0) second.child.kill("SIGKILL");
    expect(code, second.output()).toBe(0);

    const result = JSON.parse(/RESULT (.*)/.exec(second.output())![1]!);
    expect(result).toEqual({ status: "completed", output: { one: 1, two: 2, three: 3 }, steps: ["one", "two", "three"] });

    const lines = fs
      .readFileSync(env.JOBS_LOG, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" "));
    const runs = (step: string) => lines.filter(([name]) => name === step);
    expect(runs("one")).toEqual([["one", String(first.child.pid)]]);
    expect(runs("two-start").length).toBeGreaterThanOrEqual(1);
    expect(runs("two-start").length).toBeLessThanOrEqual(2);
    expect(runs("two-end").map(([, pid]) => pid)).toEqual([String(second.child.pid)]);
    expect(runs("three").map(([, pid]) => pid)).toEqual([String(second.child.pid)]);
  }, 120_000);
});
