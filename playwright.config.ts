import fs from "node:fs";
import { defineConfig } from "@playwright/test";
import { paced } from "./scripts/test-pace.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// The journeys run in Chromium's headless shell (Debian's chromium-headless-shell, the build Playwright itself uses
// for headless runs): no browser UI layer, about a third less CPU for the same 55 journeys (docs/testing.md,
// "Browser journeys"). Without it they run in the full browser.
const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/bin/chromium-headless-shell";
const JOURNEY_CHROMIUM = fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-quic",
  "--disable-sync",
];
// The journeys' pages live for seconds: V8's optimizing compilers (Maglev, TurboFan) spend CPU on code that runs a few
// times. Without them the journeys took about a tenth less CPU (docs/testing.md, "Browser journeys"). The budgets keep
// Chromium's defaults, in the full browser: they time what a person's browser does.
const JOURNEY_ARGS = [...CHROMIUM_ARGS, "--js-flags=--no-opt --no-maglev"];

/**
 * Browser journeys against the real server (`next start` via scripts/start.mjs, started in
 * e2e/global-setup.ts on a free port with its own DATA_DIR) in Debian's Chromium: the journeys in its headless shell,
 * the budgets in the full browser.
 * `npm test` builds first and reads the JSON report named by PLAYWRIGHT_JSON_OUTPUT_NAME.
 */
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
  // Two workers, a spec file each (tests of one file stay in order). Journeys are independent: each signs up
  // its own workspace. What measures time is tagged @budget: `npm test` runs the project `budgets` on its own,
  // after `journeys` (scripts/test.mjs), so nothing else loads the machine meanwhile.
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: "journeys", grepInvert: /@budget/, use: { launchOptions: { executablePath: JOURNEY_CHROMIUM, args: JOURNEY_ARGS } } },
    // A folder of its own: each run empties its output folder, and the journeys' failure screenshots must outlive this one.
    { name: "budgets", grep: /@budget/, workers: 1, outputDir: "test-results/e2e-budgets" },
  ],
  // Every wait is stretched when `npm test` finds the machine slower than usual (scripts/test-pace.mjs).
  timeout: paced(120_000),
  expect: { timeout: paced(20_000) },
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  outputDir: "test-results/e2e",
  use: {
    viewport: { width: 1440, height: 900 },
    actionTimeout: paced(15_000),
    navigationTimeout: paced(30_000),
    // Tracing every journey cost about a sixth of the phase's CPU (measured on two specs, docs/testing.md); a failure
    // keeps its screenshot, and `npx playwright test --trace=retain-on-failure` records traces when one is needed.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
});
