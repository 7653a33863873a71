import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { lockFilePath } from "@adloom/pglite-driver/lock";
import { expect, it } from "vitest";
import { freePort } from "../helpers/ports";
import { tempDataDir } from "../helpers/server";

const start = (env: Record<string, string>) =>
  spawnSync(process.execPath, [path.resolve(__dirname, "../../scripts/start.mjs")], {
    env: { ...process.env, NODE_ENV: "production", DATA_DIR: tempDataDir("badcfg"), ADLOOM_SKIP_BUILD: "1", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });

it("refuses to start on a bad configuration value, naming the variable", () => {
  const result = start({ PORT: "not-a-port" });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/Invalid configuration/);
  expect(result.stderr).toMatch(/PORT: must be a port number from 1 to 65535, got "not-a-port"/);
});

it("refuses a port out of range before starting the server, instead of Next failing on it", () => {
  for (const PORT of ["70000", "1e3"]) {
    const result = start({ PORT });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`PORT: must be a port number from 1 to 65535, got "${PORT}"`));
    expect(result.stdout).not.toMatch(/Next\.js/);
  }
});

it("refuses PostgreSQL without the key that seals platform tokens, before starting the server", () => {
  const result = start({ PORT: "1", DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/CREDENTIALS_KEY: required with DATABASE_URL/);
  expect(result.stdout).not.toMatch(/Next\.js/); // refused by npm start's check, not by a server that started
});

it("stops, saying why, when the server cannot prepare its database", async () => {
  const env = { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", CREDENTIALS_KEY: "test-credentials-key-0123456789abcdef0123" };
  const result = start({ ...env, PORT: String(await freePort()) });
  expect(result.status, result.stderr).toBe(1);
  expect(result.stderr).toMatch(/\[adloom\] could not prepare the database: /);
});

it("refuses to start, touching nothing in DATA_DIR, while another process has the embedded database (a restore writing it)", async () => {
  const dataDir = tempDataDir("busy");
  const lock = lockFilePath(path.join(dataDir, "db"));
  fs.writeFileSync(lock, String(process.pid)); // a live process that is not the server: here, this test
  try {
    const result = start({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toMatch(
      `[adloom] the embedded database in ${path.join(dataDir, "db")} is in use by process ${process.pid} (another server, or a backup restore`,
    );
    expect(fs.readdirSync(dataDir)).toEqual(["db.lock"]); // no generated key next to a restore's secrets
    expect(fs.readFileSync(lock, "utf8")).toBe(String(process.pid));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
