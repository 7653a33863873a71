import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtinModules } from "node:module";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { lockFilePath } from "@adloom/pglite-driver/lock";
import { parseConfig } from "@/lib/config";
import { whereToRun } from "./cli-dispatch";

const root = path.resolve(__dirname, "../..");

describe("where an operator command runs", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-dispatch-"));
  const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
  const pglite = parseConfig(env({ DATA_DIR: dataDir }));
  const postgres = parseConfig(env({ DATA_DIR: dataDir, DATABASE_URL: "postgres://u:p@127.0.0.1:1/db", CREDENTIALS_KEY: "k".repeat(40) }));
  const ownedBy = (pid: number | null) => {
    const lock = lockFilePath(path.join(dataDir, "db"));
    fs.rmSync(lock, { force: true });
    if (pid !== null) fs.writeFileSync(lock, String(pid));
  };

  it("hands every command to the server that holds the embedded database, and runs it here when none does", () => {
    ownedBy(null);
    expect(whereToRun(["workspace", "create", "--name", "A"], pglite)).toBe("here");
    ownedBy(process.ppid); // a live process that is not this one: the running server
    expect(whereToRun(["workspace", "create", "--name", "A"], pglite)).toBe("server");
    expect(whereToRun(["frobnicate"], pglite)).toBe("server"); // the server answers bad input with the same envelope
    ownedBy(process.pid);
    expect(whereToRun(["workspace", "create", "--name", "A"], pglite)).toBe("here");
    ownedBy(2 ** 22 + 12345); // a pid no process has: a stale lock
    expect(whereToRun(["workspace", "create", "--name", "A"], pglite)).toBe("here");
  });

  it("keeps restores (and backups on PostgreSQL) in the CLI, and always sends the server's own commands", () => {
    ownedBy(process.ppid);
    expect(whereToRun(["backup", "restore", "--from", "/x.tar.gz"], pglite)).toBe("offline");
    expect(whereToRun(["backup", "create", "--out", "/x"], pglite)).toBe("server");
    expect(whereToRun(["backup", "create", "--out", "/x"], postgres)).toBe("offline");
    expect(whereToRun(["workspace", "create", "--name", "A"], postgres)).toBe("here");
    expect(whereToRun(["server", "memory"], postgres)).toBe("server");
    ownedBy(null);
    expect(whereToRun(["server", "memory"], pglite)).toBe("server");
  });

  it("the CLI's first stage loads none of the app: only this folder's dispatch, the configuration, errors and the lock", async () => {
    const result = await esbuild.build({
      entryPoints: [path.join(root, "scripts/admin-handoff.ts")],
      absWorkingDir: root,
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      packages: "external",
      alias: { "@": root },
      metafile: true,
      logLevel: "silent",
    });
    expect(Object.keys(result.metafile.inputs).sort()).toEqual([
      "lib/admin/cli-dispatch.ts",
      "lib/admin/socket-client.ts",
      "lib/config.ts",
      "lib/errors.ts",
      "lib/http-edge-defaults.mjs",
      "packages/pglite-driver/src/pglite-lock.ts",
      "scripts/admin-handoff.ts",
    ]);
    const packages = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    expect(packages.filter((p) => !builtins.has(p))).toEqual(["zod"]);
  });
});
