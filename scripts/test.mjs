// `npm test`: typecheck, layers, lint, the vitest projects of vitest.config.ts (unit and unit-isolated; then integration on PGlite and
// the database-dependent files on PostgreSQL, in one vitest run, with the browser journeys beside it), then the timed
// browser budgets alone. The app is built in the background
// while the first phases run. Prints a budget line (wall time per phase) and one closing line
// "N passed, N failed, N skipped" summing all suites, then the list of failures.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkLayers } from "./check-layers.mjs";
import { measureTestPace } from "./test-pace.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const extraArgs = process.argv.slice(2);
// TEST_DB=pglite leaves out the PostgreSQL phase; TEST_DB=postgres runs only the PostgreSQL phase.
const onlyDb = process.env.TEST_DB;
// Every Node process of the run (vitest workers, servers, the CLIs) reuses V8's compiled code from disk
// (Node 22.1+). About 80 servers and 150 test files start in one run; the first of each fills the cache.
process.env.NODE_COMPILE_CACHE ??= path.join(root, "node_modules/.cache/adloom/v8-compile-cache");
// Everything the suites write to the temp folder (a copy of the embedded database is about 45 MB; servers, PostgreSQL
// clusters and browser profiles add more) goes into one folder, removed when the run ends: several GB per run otherwise.
const runTempDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-npm-test-"));
// Traversable by others, like the system temp folder: the PostgreSQL cluster runs as the postgres user.
fs.chmodSync(runTempDir, 0o755);
process.env.TMPDIR = runTempDir;
const totals = { passed: 0, failed: 0, skipped: 0 };
// Named again under the closing line, so the tail of a long log says what failed.
const failures = [];
let exitCode = 0;
// Each vitest file's wall time (tests/setup/file-durations.ts), for the slowest ten under the budget line.
const fileDurations = [];

/**
 * The suites need a few Debian packages (Chromium for the browser journeys, ffmpeg for
 * video fixtures). Install the missing ones with apt; say plainly when that is impossible.
 * The journeys run in Chromium's headless shell when it is there (playwright.config.ts), else in the full browser.
 */
function ensureSystemPackages() {
  const wanted = [
    { binary: "/usr/bin/chromium", pkg: "chromium" },
    { binary: "/usr/bin/chromium-headless-shell", pkg: "chromium-headless-shell" },
    { binary: "ffmpeg", pkg: "ffmpeg" },
  ];
  const has = (binary) => (binary.startsWith("/") ? fs.existsSync(binary) : spawnSync("sh", ["-c", `command -v ${binary}`]).status === 0);
  const missing = wanted.filter((w) => !has(w.binary)).map((w) => w.pkg);
  if (!missing.length) return;
  console.log(`=== installing ${missing.join(", ")} with apt-get ===`);
  const apt = (args) => spawnSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
  if (!apt(["install", "-y", "--no-install-recommends", ...missing]) && !(apt(["update"]) && apt(["install", "-y", "--no-install-recommends", ...missing]))) {
    console.error(
      `Could not install ${missing.join(", ")} (apt-get failed; root and Debian's package servers are needed). Suites that need them will fail${missing.includes("chromium-headless-shell") ? "; the journeys run in the full browser" : ""}.`,
    );
  }
}

/** The environment of a suite's process: ours, with the pace it runs at (undefined: the one set by hand). */
function paceEnv(pace) {
  return pace === undefined ? { ...process.env } : { ...process.env, ADLOOM_TEST_PACE: pace };
}

/** A step that is not a test file (typecheck, layers, lint) counts as one test: passed or failed. */
function countStep(name, ok) {
  if (ok) totals.passed += 1;
  else {
    exitCode = 1;
    totals.failed += 1;
    failures.push(name);
  }
}

/** The child's exit code; 1 when it could not be started at all (an 'error' without 'exit' would otherwise hang the run). */
function exitCodeOf(child, label) {
  return new Promise((resolve) => {
    child.once("error", (err) => {
      console.error(`${label} could not be started: ${err.message}`);
      resolve(1);
    });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

// TypeScript 7 (the native compiler, package alias `typescript-native`) checks the project in a quarter of the time and
// CPU of TypeScript 5's: 6.8 s and 8 CPU-s against 27 s and 38. TypeScript 5 stays for the tools that load its API
// (Next's build, dependency-cruiser, the packages' builds). One thread: the build runs meanwhile.
function typecheck() {
  console.log("=== typecheck (TypeScript 7: tsc --noEmit) ===");
  const tsc = path.join(root, "node_modules/typescript-native/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "--noEmit", "--singleThreaded", "-p", root], { cwd: root, stdio: "inherit" });
  countStep("typecheck", result.status === 0);
}

// The layer rules of docs/architecture.md; a broken rule prints its name and the import that broke it.
function layers() {
  console.log("\n=== layers (dependency-cruiser, .dependency-cruiser.cjs) ===");
  countStep("layers", checkLayers({ stdio: "inherit" }).ok);
}

// Biome (biome.json): formatting and lint over the whole tree, read-only. `npm run format` fixes what it can.
function lint() {
  console.log("\n=== lint and format (biome ci) ===");
  const result = spawnSync(path.join(root, "node_modules/.bin/biome"), ["ci", "--error-on-warnings", "."], { cwd: root, stdio: "inherit" });
  countStep("lint (biome ci; `npm run format` fixes formatting)", result.status === 0);
}

/**
 * The built packages (the CLI tests run the `adloom` command) and the Next.js build (the shared test server
 * and the browser journeys), in a child process so the phases that need neither run meanwhile. Its output
 * is kept and shown only when it fails.
 */
function startBuild() {
  const log = path.join(os.tmpdir(), `adloom-test-build-${process.pid}.log`);
  const out = fs.openSync(log, "w");
  const script = `const p = await import(${JSON.stringify(path.join(root, "scripts/build-packages.mjs"))});
p.buildPackagesIfStale();
const b = await import(${JSON.stringify(path.join(root, "scripts/build-if-stale.mjs"))});
b.buildIfStale();`;
  // At a lower priority: the phases running meanwhile have timing assertions; the build takes the CPU they leave idle.
  const command = [process.execPath, "--input-type=module", "-e", script];
  if (fs.existsSync("/usr/bin/nice")) command.unshift("/usr/bin/nice", "-n", "10");
  const child = spawn(command[0], command.slice(1), { cwd: root, stdio: ["ignore", out, out] });
  const startedAt = Date.now();
  const done = exitCodeOf(child, "the build").then((code) => ({ ok: code === 0, ms: Date.now() - startedAt }));
  return { done, log };
}

function firstLine(text) {
  return String(text ?? "")
    .split("\n")[0]
    .slice(0, 300);
}

/**
 * Vitest projects (vitest.config.ts) run together in one phase; their counts and failed tests join the totals. The
 * server projects run as one phase, on PGlite and PostgreSQL at once; each project sets its own worker count.
 */
async function runVitest(phase, projects, { serverChecks, pace = startPace }) {
  const report = path.join(os.tmpdir(), `adloom-vitest-${phase}-${process.pid}.json`);
  const statusReport = path.join(os.tmpdir(), `adloom-openapi-statuses-${phase}-${process.pid}.json`);
  const durations = path.join(os.tmpdir(), `adloom-file-durations-${phase}-${process.pid}.json`);
  console.log(`\n=== vitest: ${projects.join(" + ")} ===`);
  const args = [
    "run",
    ...projects.flatMap((project) => ["--project", project]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    "--reporter=./tests/setup/file-durations.ts",
  ];
  // A path filter may match no file of this project: that is not a failure then.
  if (extraArgs.length) args.push("--passWithNoTests", ...extraArgs);
  // Not spawnSync: the journeys run beside the server phase.
  const child = spawn(process.execPath, [path.join(root, "node_modules/vitest/vitest.mjs"), ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...paceEnv(pace), ADLOOM_OPENAPI_STATUS_REPORT: statusReport, ADLOOM_FILE_DURATIONS: durations },
  });
  const result = { status: await exitCodeOf(child, `vitest (${phase})`) };
  if (result.status !== 0) exitCode = 1;
  try {
    for (const row of JSON.parse(fs.readFileSync(durations, "utf8")))
      fileDurations.push({ file: `${row.file} (${row.project})`, key: `${row.project}:${row.file}`, ms: row.ms });
  } catch {
    // no durations: the run ended before its reporters did; the failure is counted below
  }
  const json = (() => {
    try {
      return JSON.parse(fs.readFileSync(report, "utf8"));
    } catch {
      return null;
    }
  })();
  // The OpenAPI check (tests/helpers/observed-statuses.ts) runs in the global teardown, whose errors vitest does not count.
  if (serverChecks && json?.numTotalTests) {
    try {
      const { undocumented } = JSON.parse(fs.readFileSync(statusReport, "utf8"));
      if (undocumented.length) {
        console.error(`OpenAPI check FAILED (${phase}): statuses the tests saw that /docs/openapi.json does not document:\n  ${undocumented.join("\n  ")}`);
        countStep(`OpenAPI status check (${phase})`, false);
      } else totals.passed += 1;
    } catch {
      countStep(`OpenAPI status check (${phase}; no report)`, false); // no report: the check did not run
    }
  }
  if (!json) {
    countStep(`vitest ${phase} (no report)`, false); // the run produced no report: count it as a failure
    return json;
  }
  // A run that ended badly without a failed test (its global setup failed, or it found no files) is a failure too.
  if (result.status !== 0 && !json.numFailedTests) countStep(`vitest ${phase} (exited with status ${result.status}; see its output above)`, false);
  totals.passed += json.numPassedTests;
  totals.failed += json.numFailedTests;
  totals.skipped += json.numPendingTests + (json.numTodoTests ?? 0);
  for (const file of json.testResults) {
    const failed = file.assertionResults.filter((t) => t.status === "failed");
    for (const t of failed) failures.push(`vitest ${phase}: ${path.relative(root, file.name)} › ${t.fullName}\n      ${firstLine(t.failureMessages?.[0])}`);
    if (!failed.length && file.status === "failed") failures.push(`vitest ${phase}: ${path.relative(root, file.name)}\n      ${firstLine(file.message)}`);
  }
  return json;
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function hasSpecs() {
  return fs.existsSync(path.join(root, "e2e")) && fs.readdirSync(path.join(root, "e2e")).some((f) => f.endsWith(".spec.ts"));
}

/**
 * One Playwright project (playwright.config.ts), with its output going to `log` when one is given (a project that runs
 * beside another phase: the caller prints the log after that phase). Resolves once its report joined the totals.
 */
function runPlaywrightProject(project, { log, nice = 0, pace = startPace } = {}) {
  const report = path.join(os.tmpdir(), `adloom-e2e-${project}-${process.pid}.json`);
  const out = log ? fs.openSync(log, "w") : "inherit";
  const command = [process.execPath, path.join(root, "node_modules/@playwright/test/cli.js"), "test", "--project", project];
  if (nice && fs.existsSync("/usr/bin/nice")) command.unshift("/usr/bin/nice", "-n", String(nice));
  if (!log) console.log(`\n=== playwright (e2e): ${project} ===`);
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    stdio: ["ignore", out, out],
    env: { ...paceEnv(pace), PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  return exitCodeOf(child, `playwright (${project})`).then((code) => {
    if (code !== 0) exitCode = 1;
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
        for (const childSuite of suite.suites ?? []) walk(childSuite);
      };
      for (const suite of suites ?? []) walk(suite);
    } catch {
      countStep(`playwright ${project} (no report)`, false);
    }
  });
}

/** False when there is no Chromium to run the journeys with: that counts as a failure. */
function chromiumPresent() {
  if (fs.existsSync(CHROMIUM)) return true;
  console.error(`\n=== playwright (e2e) NOT RUN: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH) ===`);
  countStep("playwright (not run: no Chromium)", false);
  return false;
}

// Wall time per phase, for the budget line (installing packages is not counted).
const phases = [];
async function timed(name, fn) {
  const startedAt = Date.now();
  const value = await fn();
  phases.push({ name, ms: Date.now() - startedAt });
  return value;
}

ensureSystemPackages();
// Measured before anything else loads the machine; every suite stretches its waits by it (scripts/test-pace.mjs).
// The machine's pace moves within minutes, so it is measured again before the server phase (that phase and the
// journeys take the slower of the two) and before the budgets (alone: they take that one).
// ADLOOM_TEST_PACE set by hand wins (1 holds every wait at its usual length).
function announcePace(when) {
  if (process.env.ADLOOM_TEST_PACE) return console.log(`test pace ${when}: ${process.env.ADLOOM_TEST_PACE} (set by ADLOOM_TEST_PACE)`);
  const { pace, medianMs, referenceMs } = measureTestPace();
  console.log(`test pace ${when}: ${pace.toFixed(2)} (a sample of fixed work took ${medianMs.toFixed(0)} ms, ${referenceMs} ms at the usual pace)`);
  return pace.toFixed(2);
}
const startPace = announcePace("at the start");
const budgetStart = Date.now();
const build = startBuild();
const fullRun = !extraArgs.length;
if (fullRun) {
  await timed("typecheck", typecheck);
  await timed("layers", layers);
  await timed("lint", lint);
}
if (onlyDb !== "postgres") await timed("unit", () => runVitest("unit", ["unit", "unit-isolated"], { serverChecks: false }));
const built = await timed("waiting for build", () => build.done);
phases.push({ name: "build (in the background)", ms: built.ms, overlapped: true });
if (!built.ok) {
  console.error(`\nThe build failed; its output:\n${fs.readFileSync(build.log, "utf8")}`);
  countStep("build (next build / packages)", false);
} else {
  const serverProjects = [...(onlyDb !== "postgres" ? ["integration", "integration-isolated"] : []), ...(onlyDb !== "pglite" ? ["postgres"] : [])];
  const browsers = fullRun && !onlyDb && hasSpecs() && chromiumPresent();
  const measured = announcePace("before the server phase");
  const serverPace = measured === undefined ? undefined : Math.max(Number(startPace), Number(measured)).toFixed(2);
  const serverPhase = timed("integration (PGlite) + postgres", () => runVitest("servers", serverProjects, { serverChecks: true, pace: serverPace }));
  // The server phase's files spend much of their time waiting (restarts, schedules, retries, PostgreSQL), most of all
  // while its shared servers start: the journeys run beside it from its start, at a lower priority so they take what
  // the vitest workers leave (docs/testing.md, "Two phases at once").
  let journeys = null;
  if (browsers) {
    console.log("\n=== playwright (e2e): journeys start beside the server phase ===");
    const log = path.join(os.tmpdir(), `adloom-e2e-journeys-${process.pid}.log`);
    const startedAt = Date.now();
    journeys = { log, run: runPlaywrightProject("journeys", { log, nice: 5, pace: serverPace }).then(() => ({ ms: Date.now() - startedAt })) };
  }
  await serverPhase;
  if (journeys) {
    const { ms } = await timed("waiting for journeys", () => journeys.run);
    phases.push({ name: "playwright journeys (beside it)", ms, overlapped: true });
    console.log(`\n=== playwright (e2e): journeys (ran beside the server phase) ===\n${fs.readFileSync(journeys.log, "utf8")}`);
    // The timed budgets alone, with nothing else loading the machine, at the pace measured then.
    const budgetPace = announcePace("before the budgets");
    await timed("playwright budgets", () => runPlaywrightProject("budgets", { pace: budgetPace }));
  }
}

// `npm run test:durations`: this run's file times become the order the next runs start files in (longest first,
// tests/setup/longest-first.ts). Files this run did not reach keep their recorded time.
if (process.env.ADLOOM_RECORD_DURATIONS === "1" && fileDurations.length) {
  const record = path.join(root, "tests/file-durations.json");
  const merged = fs.existsSync(record) ? JSON.parse(fs.readFileSync(record, "utf8")) : {};
  for (const row of fileDurations) merged[row.key] = row.ms;
  const exists = (key) => fs.existsSync(path.join(root, key.slice(key.indexOf(":") + 1)));
  const sorted = Object.fromEntries(
    Object.entries(merged)
      .filter(([key]) => exists(key))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  fs.writeFileSync(record, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`\nrecorded ${fileDurations.length} file durations in tests/file-durations.json`);
}

// The budget: `.ci/run` (clean install + npm test) within 12 minutes on the 2-core CI machine; install is not counted here.
const BUDGET_MS = 12 * 60_000;
const totalMs = Date.now() - budgetStart;
const seconds = (ms) => `${Math.round(ms / 1000)}s`;
const slowest = fileDurations.sort((a, b) => b.ms - a.ms).slice(0, 10);
if (slowest.length) console.log(`\nslowest test files:\n  ${slowest.map((f) => `${seconds(f.ms).padStart(5)}  ${f.file}`).join("\n  ")}`);
const overBudget = fullRun && totalMs > BUDGET_MS ? ` OVER the ${seconds(BUDGET_MS)} budget` : ` (budget ${seconds(BUDGET_MS)})`;
console.log(`\nbudget: ${phases.map((p) => `${p.name} ${seconds(p.ms)}`).join(" · ")} · total ${seconds(totalMs)}${overBudget}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failures.length) console.log(`failed:\n  ${failures.join("\n  ")}`);
fs.rmSync(runTempDir, { recursive: true, force: true });
process.exit(exitCode || (totals.failed ? 1 : 0));
