// scripts/check-config.ts as one plain ES module, so `npm start` checks the configuration without a TypeScript
// loader in the way (tsx costs a second of CPU per start; esbuild bundles this in a few milliseconds).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Bundles the check under node_modules/.cache (packages stay imports, resolved from the project) and loads it. */
export async function loadConfigCheck() {
  // One file per process: starts running side by side never read a bundle another one is writing.
  const outfile = path.join(root, "node_modules/.cache/adloom", `check-config-${process.pid}.mjs`);
  await esbuild.build({
    entryPoints: [path.join(root, "scripts/check-config.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    alias: { "@": root },
    logLevel: "error",
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    fs.rmSync(outfile, { force: true });
  }
}
