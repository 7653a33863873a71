// `npm start`: validate the configuration, build when needed, then serve (the server migrates the database).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildIfStale } from "./build-if-stale.mjs";
import { importBundled } from "./bundled-typescript.mjs";
import { WASM_TIERING_FLAG } from "./v8-flags.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  // V8's compile cache (Node 22.1+; ignored before): the server's next start compiles its modules from disk,
  // about 1.5 of the ~7 CPU-seconds a start costs (measured in docs/testing.md).
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(root, "node_modules/.cache/adloom/v8-compile-cache"),
  // glibc gives each thread that allocates its own arena (up to 8 per core); libvips' and libuv's
  // worker threads decoding images then leave tens of MB fragmented in arenas that are never given
  // back. Two arenas keep RSS flat under imports (docs/performance.md, bench:import); set it to override.
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
  // libuv's worker threads run file reads and writes and every sharp decode; with the default 4, the
  // image work (up to 4 at once, lib/creatives/image-work.ts) could hold them all while transfers wait to write.
  UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? "8",
};

// The configuration first, before a build can keep anyone waiting; the server prepares the database itself
// (lib/server/prepare-database.ts), so a start opens it once.
const problem = (await importBundled("scripts/check-config.ts")).configurationProblem(process.env);
if (problem) {
  console.error(`[adloom] ${problem}`);
  process.exit(1);
}

try {
  if (process.env.ADLOOM_SKIP_BUILD !== "1") buildIfStale();
} catch (err) {
  console.error(`[adloom] ${err.message}`);
  process.exit(1);
}

const port = process.env.PORT || "3000";
// The HTTP server's timeouts and raw-header checks (lib/server/http-edge.mjs) go in before Next creates it.
const httpEdge = ["--import", pathToFileURL(path.join(root, "scripts/http-edge-preload.mjs")).href];
// V8 flags given to this script (`node --max-semi-space-size=32 scripts/start.mjs`) apply to the server it starts; an
// inspector flag stays here, where its port is already taken.
const ownV8Flags = process.execArgv.filter((flag) => !/^--(inspect|debug)/.test(flag));
const v8Flags = [WASM_TIERING_FLAG, ...ownV8Flags];
// AsyncLocalStorage (Next's request and work stores, our request context) on V8's continuation data instead of
// promise hooks, which otherwise run for every promise the server makes: +25% requests per second on both a bare
// route and `/api/v1/me` (npm run bench:api, docs/performance.md round 6). The default from Node 24; Node 22 has it
// behind this flag, and an older Node does not know it (then it is left out).
const nodeFlags = process.allowedNodeEnvironmentFlags.has("--experimental-async-context-frame") ? ["--experimental-async-context-frame"] : [];
const server = spawn(process.execPath, [...nodeFlags, ...v8Flags, ...httpEdge, path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port], {
  cwd: root,
  stdio: "inherit",
  // The app handles SIGTERM/SIGINT itself (lib/server/shutdown.ts): drain requests, hand job runs back, close the database.
  env: { ...env, NODE_ENV: "production", NEXT_MANUAL_SIG_HANDLE: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
