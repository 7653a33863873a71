import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The sandbox's fence beyond the layer check (which covers the app's layered code): no file outside
 * lib/platforms/sandbox/ — tests, benches and scripts included — names the sandbox's tables or imports
 * a file of the module other than its public index.ts and operator.ts.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const SCANNED = ["app", "components", "lib", "inngest", "pages", "tests", "e2e", "bench", "scripts", "packages"];
const SKIP_DIRS = new Set(["node_modules", "generated", "dist", ".next"]);
// The upgrade test plants the app's old tables (public.sandbox_*) on purpose: that is the state it upgrades.
const ALLOWED = new Set(["lib/platforms/sandbox", "tests/db/sandbox-schema.test.ts"]);

const TABLE_NAMES =
  /\bsandbox_(accounts|campaigns|ad_sets|ads|ad_days|comments|leads|media_sessions)\b|\bsandbox\.(accounts|campaigns|ad_sets|ads|ad_days|comments|leads|media_sessions|migrations)\b|\.sandbox(Account|Campaign|AdSet|Ad|AdDay|Comment|Lead|MediaSession)\b/;
const DEEP_IMPORT = /["']@\/lib\/platforms\/sandbox\/(?!index["']|operator["'])[^"']+["']/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (ALLOWED.has(rel) || SKIP_DIRS.has(entry.name)) continue;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx|mts|mjs|cjs|js|sql)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

describe("the sandbox module's fence", () => {
  it("no file outside it names its tables or reaches past its public files", () => {
    const offenders: string[] = [];
    for (const dir of SCANNED.filter((d) => fs.existsSync(path.join(root, d)))) {
      for (const file of sourceFiles(dir)) {
        const text = fs.readFileSync(path.join(root, file), "utf8");
        if (TABLE_NAMES.test(text)) offenders.push(`${file}: names a sandbox table`);
        if (DEEP_IMPORT.test(text)) offenders.push(`${file}: imports inside lib/platforms/sandbox (use index.ts or operator.ts)`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("it names no app table: the workspace and its accounts come through lib/platforms' account API", () => {
    const schemaDir = path.join(root, "prisma/schema");
    const models: string[] = [];
    const tables: string[] = [];
    for (const file of fs.readdirSync(schemaDir).filter((f) => f.endsWith(".prisma"))) {
      const text = fs.readFileSync(path.join(schemaDir, file), "utf8");
      for (const m of text.matchAll(/^model (\w+) \{/gm)) models.push(m[1]!);
      for (const m of text.matchAll(/@@map\("(\w+)"\)/g)) tables.push(m[1]!);
    }
    expect(models).toContain("Workspace");
    const delegate = new RegExp(
      `\\.(${models.map((m) => m[0]!.toLowerCase() + m.slice(1)).join("|")})\\s*\\.\\s*(find|create|update|upsert|delete|count|aggregate|groupBy)\\w*\\(`,
    );
    const sql = new RegExp(`\\b(FROM|JOIN|INTO|UPDATE|TABLE)\\s+(public\\.)?"?(${tables.join("|")})\\b"?(?!\\.)`, "i");
    const moduleDir = "lib/platforms/sandbox";
    const offenders: string[] = [];
    for (const entry of fs.readdirSync(path.join(root, moduleDir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.ts$/.test(entry.name) || entry.name.endsWith(".test.ts")) continue;
      const rel = path.relative(root, path.join(entry.parentPath, entry.name));
      const text = fs.readFileSync(path.join(root, rel), "utf8");
      if (delegate.test(text)) offenders.push(`${rel}: reads an app table through Prisma (${text.match(delegate)![0]})`);
      if (sql.test(text)) offenders.push(`${rel}: names an app table in SQL (${text.match(sql)![0]})`);
    }
    expect(offenders).toEqual([]);
  });
});
