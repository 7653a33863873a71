import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { tempDataDir } from "../helpers/server";

it("refuses to start on a bad configuration value, naming the variable", () => {
  const result = spawnSync(process.execPath, [path.resolve(__dirname, "../../scripts/start.mjs")], {
    env: { ...process.env, NODE_ENV: "production", PORT: "not-a-port", DATA_DIR: tempDataDir("badcfg"), ADLOOM_SKIP_BUILD: "1" },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toMatch(/Invalid configuration/);
  expect(result.stderr).toMatch(/PORT: must be a positive integer, got "not-a-port"/);
});
