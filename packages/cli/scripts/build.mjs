// Builds the CLI to plain ESM JavaScript in dist/ (bin/adloom.js, the `adloom` command, runs it). Needs @adloom/sdk built first.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
fs.rmSync(path.join(root, "dist"), { recursive: true, force: true });
const result = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], { cwd: root, stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
console.log("@adloom/cli built: dist/ (the command is bin/adloom.js)");

// tus-js-client (resumable uploads of large files) is bundled into dist/vendor rather than installed:
// the command keeps a single dependency, and the library's optional peer is handed to it explicitly.
const esbuild = await import("esbuild");
await esbuild.build({
  entryPoints: [require.resolve("tus-js-client")],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: path.join(root, "dist/vendor/tus-js-client.cjs"),
  logLevel: "error",
  legalComments: "inline",
});
