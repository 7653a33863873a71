// Builds the Next.js app when there is no build yet or a source file is newer than it.
// A lock directory keeps two processes from building into the same folder at once.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCES = [
  "app",
  "lib",
  "packages/pglite-driver/src",
  "packages/job-runner/src",
  "components",
  "inngest",
  "prisma",
  "instrumentation.ts",
  "proxy.ts",
  "auth.ts",
  "pages",
  "next.config.js",
  "package.json",
  "postcss.config.mjs",
  "tsconfig.json",
];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) {
    if (child === "node_modules") continue; // dot folders count: app/.well-known holds routes
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

export function distDir() {
  return path.join(root, process.env.NEXT_DIST_DIR || ".next");
}

// When the last successful build started: a source saved while it ran is newer than this, so the next check
// builds again (comparing with BUILD_ID's time, written at the end, would miss that edit).
const startedStamp = () => distDir() + ".build-started";

function isStale() {
  const buildId = path.join(distDir(), "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.existsSync(startedStamp()) ? Number(fs.readFileSync(startedStamp(), "utf8")) : fs.statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(s) > built);
}

function withLock(fn) {
  const lock = distDir() + ".build-lock";
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock}; remove it if no build is running`);
      spawnSync("sleep", ["1"]);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export function buildIfStale({ quiet = false } = {}) {
  if (!isStale()) return false;
  return withLock(() => {
    if (!isStale()) return false; // another process built it while we waited
    if (!quiet) console.log("[adloom] building the app (first start or sources changed)...");
    const startedAt = Date.now();
    const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: quiet ? ["ignore", "pipe", "inherit"] : "inherit",
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (result.status !== 0) {
      if (quiet && result.stdout) process.stderr.write(result.stdout);
      throw new Error("next build failed");
    }
    fs.writeFileSync(startedStamp(), String(startedAt));
    return true;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildIfStale();
  } catch (err) {
    console.error(`[adloom] ${err.message}`);
    process.exit(1);
  }
}
