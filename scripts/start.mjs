// `npm start`: validate configuration and apply migrations, build when needed, then serve.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildIfStale } from "./build-if-stale.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

const preflight = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/preflight.ts")], { cwd: root, stdio: "inherit", env });
if (preflight.status !== 0) process.exit(preflight.status ?? 1);

try {
  if (process.env.ADLOOM_SKIP_BUILD !== "1") buildIfStale();
} catch (err) {
  console.error(`[adloom] ${err.message}`);
  process.exit(1);
}

const port = process.env.PORT || "3000";
// The HTTP server's timeouts and raw-header checks (lib/server/http-edge.mjs) go in before Next creates it.
const httpEdge = ["--import", pathToFileURL(path.join(root, "scripts/http-edge-preload.mjs")).href];
const server = spawn(process.execPath, [...httpEdge, path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port], {
  cwd: root,
  stdio: "inherit",
  // The app handles SIGTERM/SIGINT itself (lib/server/shutdown.ts): drain requests, hand job runs back, close the database.
  env: { ...env, NODE_ENV: "production", NEXT_MANUAL_SIG_HANDLE: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
