// `npm run check:layers`: checks the layer rules of docs/architecture.md (.dependency-cruiser.cjs) on the
// app's sources. Prints each broken rule with the import that broke it; exits 1 when any rule is broken.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What the rules cover (paths in other places, like tests/ and scripts/, are not layered). */
export const LAYERED_PATHS = ["app", "pages", "components", "lib", "inngest", "packages/pglite-driver", "auth.ts", "instrumentation.ts", "proxy.ts"];

/**
 * Runs dependency-cruiser with the repository's rules over the layered paths under `cwd` (the
 * repository, or a fixture tree laid out like it with its own tsconfig.json).
 */
export function checkLayers({ cwd = root, stdio = "pipe" } = {}) {
  const targets = LAYERED_PATHS.filter((p) => fs.existsSync(path.join(cwd, p)));
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
      "--config",
      path.join(root, ".dependency-cruiser.cjs"),
      "--output-type",
      "err-long",
      ...targets,
    ],
    { cwd, stdio, encoding: "utf8" },
  );
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(checkLayers({ stdio: "inherit" }).ok ? 0 : 1);
}
