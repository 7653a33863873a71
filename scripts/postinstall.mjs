// Generates the Prisma client after `npm install`. `prisma generate` does not need the
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
process.exit(result.status ?? 1);
