// After `npm install` of this repository (never of a package: the root is private and
// unpublished, and packages/* have no install scripts): generates the Prisma client, then
// builds the workspace packages (the client library and the CLI) when their dist is stale.
// `prisma generate` does not need the
// native schema engine, but tries to download it unless told where one is; machines
// without internet access fail there, so point it at a stand-in unless one is set.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const result = spawnSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "generate"], {
  cwd: root,
  stdio: "inherit",
  env: { PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false", ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
if (result.status !== 0) process.exit(result.status ?? 1);
const { buildPackagesIfStale } = await import("./build-packages.mjs");
buildPackagesIfStale();
