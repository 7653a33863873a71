import { execFile } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

/**
 * Runs `npm run --silent admin -- ...` exactly as an operator would. Asynchronously: a test process
 * blocked for the CLI's whole run cannot notice the server closing its idle keep-alive connections,
 * and its next request would go out on a dead one.
 */
export function adminCli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; json: any }> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "admin", "--", ...args],
      { cwd: ROOT, env: { ...process.env, ...env, NODE_ENV: "production" }, encoding: "utf8", timeout: 120_000 },
      (error, stdout) => {
        const lines = stdout.trim().split("\n");
        const status = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ status, stdout, json: JSON.parse(lines[lines.length - 1]!) });
      },
    );
  });
}
