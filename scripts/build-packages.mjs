// Builds the workspace packages (packages/sdk, then packages/cli, which needs the SDK's
// dist) when their dist is missing or older than their sources. Run by the root's
// postinstall and by the test setup; `npm run build:packages` forces nothing, it checks.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = ["sdk", "cli"];

function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

export function buildPackagesIfStale({ force = false } = {}) {
  let rebuiltUpstream = false;
  for (const name of PACKAGES) {
    const dir = path.join(root, "packages", name);
    const stamp = path.join(dir, "dist", ".built");
    const sources = Math.max(...["src", "scripts", "package.json", "tsconfig.json", "tsconfig.cjs.json"].map((f) => newestMtime(path.join(dir, f))));
    if (!force && !rebuiltUpstream && fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= sources) continue;
    const result = spawnSync(process.execPath, [path.join(dir, "scripts/build.mjs")], { cwd: dir, stdio: "inherit" });
    if (result.status !== 0) throw new Error(`Building packages/${name} failed`);
    fs.writeFileSync(stamp, new Date().toISOString() + "\n");
    rebuiltUpstream = true; // the CLI compiles against the SDK's declarations
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildPackagesIfStale({ force: process.argv.includes("--force") });
}
