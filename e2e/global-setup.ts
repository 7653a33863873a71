import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfStale } from "../scripts/build-if-stale.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Chromium comes from Debian; install it once when missing (as `npm test` promises). */
function ensureChromium(): void {
  const executable = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (fs.existsSync(executable)) return;
  try {
    execFileSync("apt-get", ["install", "-y", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  } catch (error) {
    throw new Error(`Chromium is not at ${executable} and "apt-get install -y chromium" failed: ${(error as Error).message}`);
  }
}

/** Builds the app if stale, then starts the real server on a free port with a throwaway DATA_DIR. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureChromium();
  buildIfStale({ quiet: true });
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-e2e-"));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    DATA_DIR: dataDir,
    ADLOOM_SKIP_BUILD: "1",
    WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
    LOG_LEVEL: "warn",
  };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/start.mjs")], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid!, "SIGKILL");
      throw new Error(`server did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DATA_DIR = dataDir;
  return async () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* already gone */
    }
    await new Promise((r) => child.once("exit", r).once("error", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (process.env.E2E_SHOW_SERVER_OUTPUT) console.log(output);
  };
}
