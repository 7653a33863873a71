import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./ports";

/**
 * A throwaway PostgreSQL server for tests: its own data directory, trust auth, loopback
 * only, no fsync. Stopped (and its directory removed) by stop() or when the process exits.
 */
export interface TestPostgres {
  /** Admin connection URL (database "postgres", user "postgres"). */
  url: string;
  /** Creates a database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const run = promisify(execFile);
const BIN_DIR = process.env.PG_BIN_DIR ?? "/usr/lib/postgresql/15/bin";
const isRoot = process.getuid?.() === 0;

let unavailable: string | null | undefined;

/** Null when PostgreSQL can run here (installing it with apt-get once if needed), else why not. */
export function postgresUnavailableReason(): string | null {
  if (unavailable !== undefined) return unavailable;
  if (!fs.existsSync(path.join(BIN_DIR, "initdb"))) {
    const apt = (args: string[]) =>
      execFileSync("apt-get", args, { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, timeout: 300_000 });
    try {
      try {
        apt(["install", "-y", "postgresql"]);
      } catch {
        apt(["update"]); // a fresh machine may have no package lists yet
        apt(["install", "-y", "postgresql"]);
      }
    } catch (error) {
      return (unavailable = `PostgreSQL is not installed in ${BIN_DIR} and "apt-get install -y postgresql" failed: ${(error as Error).message}`);
    }
  }
  unavailable = fs.existsSync(path.join(BIN_DIR, "initdb")) ? null : `No initdb in ${BIN_DIR} (set PG_BIN_DIR)`;
  return unavailable;
}

/** initdb and pg_ctl refuse to run as root: run them as the postgres user then. */
function pgCommand(binary: string, args: string[]): [string, string[]] {
  const file = path.join(BIN_DIR, binary);
  return isRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
}

export async function startPostgres(): Promise<TestPostgres> {
  const reason = postgresUnavailableReason();
  if (reason) throw new Error(reason);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-pg-"));
  if (isRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    fs.chownSync(dir, uid, gid);
  }
  const dataDir = path.join(dir, "data");
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
  ].join(" ");

  await run(...pgCommand("initdb", ["-D", dataDir, "--auth=trust", "-U", "postgres", "--encoding=UTF8", "--no-locale"]));
  await run(...pgCommand("pg_ctl", ["-D", dataDir, "-l", path.join(dir, "server.log"), "-o", options, "-w", "start"]));

  let stopped = false;
  const stopArgs = pgCommand("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    try {
      execFileSync(...stopArgs, { stdio: "ignore" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once("exit", stopNow);

  const urlFor = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const url = urlFor("postgres");
  return {
    url,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Invalid database name "${name}"`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return urlFor(name);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener("exit", stopNow);
      try {
        await run(...stopArgs);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
