import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { seedMigratedDatabase } from "./database-template";
import { freePort } from "./ports";
import { paced } from "../../scripts/test-pace.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  /** Everything the server printed, for assertions and failure messages. */
  output(): string;
  /** Graceful stop (SIGTERM). */
  stop(): Promise<void>;
  /** Abrupt death (SIGKILL), as in a crash. */
  kill(): Promise<void>;
}

export interface StartServerOptions {
  dataDir?: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  port?: number;
  /**
   * A server that serves a whole project or the journeys for minutes under load (the global setups'): V8's optimizing
   * compiler pays for itself there. A test file's own server lives seconds to a minute and starts with `--no-opt`
   * (Maglev still compiles hot code): about a tenth less CPU for those servers, where a shared server under load
   * spent a tenth to a third more (docs/testing.md, "What a server start costs").
   */
  longLived?: boolean;
}

export function tempDataDir(label = "server"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `adloom-${label}-`));
}

/** A new DATA_DIR holding a freshly migrated embedded database (tests/helpers/database-template.ts). */
export async function migratedDataDir(label = "server"): Promise<string> {
  const dataDir = tempDataDir(label);
  await seedMigratedDatabase(dataDir);
  return dataDir;
}

/** Starts the real server (`npm start`'s script, production build) and waits until it answers. */
export async function startServer(options: StartServerOptions = {}): Promise<TestServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? (options.databaseUrl ? tempDataDir() : await migratedDataDir());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    DATA_DIR: dataDir,
    ADLOOM_SKIP_BUILD: "1",
    WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
    LOG_LEVEL: "warn",
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  if (!options.databaseUrl && !options.env?.DATABASE_URL) delete env.DATABASE_URL;
  // On PostgreSQL the key that seals stored platform tokens must come from configuration.
  if (env.DATABASE_URL && !env.CREDENTIALS_KEY) env.CREDENTIALS_KEY = "test-credentials-key-0123456789abcdef0123";
  delete env.NODE_ENV; // vitest sets "test"; the server runs as production
  const v8Flags = options.longLived ? [] : ["--no-opt"];
  const child: ChildProcess = spawn(process.execPath, [...v8Flags, path.join(ROOT, "scripts/start.mjs")], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so kill() takes next's children too
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + paced(90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid!, "SIGKILL");
      throw new Error(`server did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  // The whole process group (start script and next) must be gone: only then is the
  // embedded database's lock free for a restart on the same DATA_DIR.
  const signal = async (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      /* already gone */
    }
    await exited;
    for (let i = 0; groupAlive() && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
  };
  return {
    url,
    port,
    dataDir,
    env,
    output: () => output,
    stop: () => signal("SIGTERM"),
    kill: () => signal("SIGKILL"),
  };
}
