// `npm test`: every suite, on both databases, then the browser journeys.
// Prints one closing line "N passed, N failed" summing all suites.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfStale } from "./build-if-stale.mjs";
import { checkLayers } from "./check-layers.mjs";
import { buildPackagesIfStale } from "./build-packages.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const extraArgs = process.argv.slice(2);
const onlyDb = process.env.TEST_DB; // run one database only when set
const totals = { passed: 0, failed: 0, skipped: 0 };
// Named again under the closing line, so the tail of a long log says what failed.
const failures = [];
let exitCode = 0;

/**
 * The suites need a few Debian packages (Chromium for the browser journeys, ffmpeg for
 * video fixtures). Install the missing ones with apt; say plainly when that is impossible.
 */
function ensureSystemPackages() {
  const wanted = [
    { binary: "/usr/bin/chromium", pkg: "chromium" },
    { binary: "ffmpeg", pkg: "ffmpeg" },
  ];
  const has = (binary) => (binary.startsWith("/") ? fs.existsSync(binary) : spawnSync("sh", ["-c", `command -v ${binary}`]).status === 0);
  const missing = wanted.filter((w) => !has(w.binary)).map((w) => w.pkg);
  if (!missing.length) return;
  console.log(`=== installing ${missing.join(", ")} with apt-get ===`);
  const apt = (args) => spawnSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
  if (!apt(["install", "-y", "--no-install-recommends", ...missing]) && !(apt(["update"]) && apt(["install", "-y", "--no-install-recommends", ...missing]))) {
    console.error(`Could not install ${missing.join(", ")} (apt-get failed; root and Debian's package servers are needed). Suites that need them will fail.`);
  }
}

function typecheck() {
  console.log("=== typecheck (tsc --noEmit) ===");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", root], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    exitCode = 1;
    totals.failed += 1;
    failures.push("typecheck");
  } else totals.passed += 1;
}

// The layer rules of docs/architecture.md; a broken rule prints its name and the import that broke it.
function layers() {
  console.log("\n=== layers (dependency-cruiser, .dependency-cruiser.cjs) ===");
  if (checkLayers({ stdio: "inherit" }).ok) totals.passed += 1;
  else {
    exitCode = 1;
    totals.failed += 1;
    failures.push("layers");
  }
}

ensureSystemPackages();
buildPackagesIfStale(); // the CLI tests run the built `adloom` command
if (!extraArgs.length) {
  typecheck();
  layers();
}
buildIfStale();

function firstLine(text) {
  return String(text ?? "").split("\n")[0].slice(0, 300);
}

function runVitest(db) {
  const report = path.join(os.tmpdir(), `adloom-vitest-${db}-${process.pid}.json`);
  const statusReport = path.join(os.tmpdir(), `adloom-openapi-statuses-${db}-${process.pid}.json`);
  console.log(`\n=== vitest on ${db} ===`);
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extraArgs],
    { cwd: root, stdio: "inherit", env: { ...process.env, TEST_DB: db, ADLOOM_OPENAPI_STATUS_REPORT: statusReport } },
  );
  if (result.status !== 0) exitCode = 1;
  // The OpenAPI check (tests/helpers/observed-statuses.ts) runs in the global teardown, whose errors vitest does not count.
  try {
    const { undocumented } = JSON.parse(fs.readFileSync(statusReport, "utf8"));
    if (undocumented.length) {
      console.error(`OpenAPI check FAILED on ${db}: statuses the tests saw that /docs/openapi.json does not document:\n  ${undocumented.join("\n  ")}`);
      exitCode = 1;
      totals.failed += 1;
      failures.push(`OpenAPI status check on ${db}`);
    } else totals.passed += 1;
  } catch {
    exitCode = 1;
    totals.failed += 1; // no report: the check did not run
    failures.push(`OpenAPI status check on ${db} (no report)`);
  }
  try {
    const json = JSON.parse(fs.readFileSync(report, "utf8"));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + (json.numTodoTests ?? 0);
    for (const file of json.testResults) {
      const failed = file.assertionResults.filter((t) => t.status === "failed");
      for (const t of failed) failures.push(`vitest on ${db}: ${path.relative(root, file.name)} › ${t.fullName}\n      ${firstLine(t.failureMessages?.[0])}`);
      if (!failed.length && file.status === "failed") failures.push(`vitest on ${db}: ${path.relative(root, file.name)}\n      ${firstLine(file.message)}`);
    }
  } catch {
    exitCode = 1;
    totals.failed += 1; // the run produced no report: count it as a failure
    failures.push(`vitest on ${db} (no report)`);
  }
}

function runPlaywright() {
  const specs = fs.existsSync(path.join(root, "e2e")) && fs.readdirSync(path.join(root, "e2e")).some((f) => f.endsWith(".spec.ts"));
  if (!specs || extraArgs.length) return;
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromium)) {
    console.error(`\n=== playwright (e2e) NOT RUN: no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH) ===`);
    exitCode = 1;
    totals.failed += 1;
    failures.push("playwright (not run: no Chromium)");
    return;
  }
  console.log("\n=== playwright (e2e) ===");
  const report = path.join(os.tmpdir(), `adloom-e2e-${process.pid}.json`);
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@playwright/test/cli.js"), "test"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  if (result.status !== 0) exitCode = 1;
  try {
    const { stats, suites } = JSON.parse(fs.readFileSync(report, "utf8"));
    totals.passed += stats.expected;
    totals.failed += stats.unexpected + (stats.flaky ?? 0);
    totals.skipped += stats.skipped;
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        const bad = (spec.tests ?? []).find((t) => t.status === "unexpected" || t.status === "flaky");
        if (bad) failures.push(`playwright (${bad.status}): ${spec.file}:${spec.line} › ${spec.title}`);
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of suites ?? []) walk(suite);
  } catch {
    exitCode = 1;
    totals.failed += 1;
    failures.push("playwright (no report)");
  }
}

for (const db of onlyDb ? [onlyDb] : ["pglite", "postgres"]) runVitest(db);
if (!onlyDb) runPlaywright();

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failures.length) console.log(`failed:\n  ${failures.join("\n  ")}`);
process.exit(exitCode || (totals.failed ? 1 : 0));
