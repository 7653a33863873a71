// Builds the library: ESM and CommonJS with .d.ts (TypeScript's own compiler), then bundles
// the ESM entry for browsers to hold it to its size budget (printed; the build fails over it).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
/** Minified + gzipped size allowed for everything a browser app gets from `import { Adloom } from "@adloom/sdk"`. */
const BROWSER_BUDGET_GZIP_BYTES = 8 * 1024;

function tsc(project) {
  const result = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(root, project)], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

fs.rmSync(path.join(root, "dist"), { recursive: true, force: true });
tsc("tsconfig.json");
tsc("tsconfig.cjs.json");
// The CommonJS half lives under its own package scope, so Node and TypeScript read its .js and .d.ts as CommonJS.
fs.writeFileSync(path.join(root, "dist/cjs/package.json"), JSON.stringify({ type: "commonjs" }) + "\n");

const esbuild = await import("esbuild");
const bundle = await esbuild.build({
  entryPoints: [path.join(root, "dist/esm/index.js")],
  bundle: true,
  minify: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  write: false,
  logLevel: "error",
});
const code = bundle.outputFiles[0].contents;
const gzip = gzipSync(code, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const verdict = gzip <= BROWSER_BUDGET_GZIP_BYTES ? "within" : "OVER";
console.log(`@adloom/sdk browser bundle: ${kb(code.length)} minified, ${kb(gzip)} gzipped (${verdict} the ${kb(BROWSER_BUDGET_GZIP_BYTES)} budget)`);
if (gzip > BROWSER_BUDGET_GZIP_BYTES) process.exit(1);
