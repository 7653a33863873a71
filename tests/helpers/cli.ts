import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";

/** The built command, as `npm install -g @adloom/cli` installs it (tests/global-setup.ts builds the packages). */
export const ADLOOM_BIN = path.resolve(__dirname, "../../packages/cli/bin/adloom.js");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, when it is JSON. */
  json: any;
}

/** Runs `adloom` as a separate process (no TTY) against the run's server, with `env` on top of a minimal environment. */
export function runAdloom(args: string[], env: Record<string, string> = {}, stdin?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ADLOOM_BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: os.tmpdir(), ADLOOM_BASE_URL: inject("baseUrl"), NODE_ENV: "production", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      let json: any;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
    // A command that reads no input may exit before this write lands (EPIPE): its output and exit code are what the
    // test asserts, so that is not an error of the run.
    child.stdin.on("error", () => {});
    child.stdin.end(stdin ?? "");
  });
}
