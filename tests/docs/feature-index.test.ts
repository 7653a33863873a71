import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/features/<feature>.md: where a feature's schema, rules, tools, jobs, pages, tests and docs
 * are. The indexes stay true: each path they name exists (a folder is written with a trailing
 * `/`), and every lib/ folder is either in a feature's index or named below as cross-cutting.
 */
const root = path.resolve(import.meta.dirname, "../..");
const dir = path.join(root, "docs/features");
const indexes = fs.readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md");
const pathsOf = (file: string) => [...fs.readFileSync(path.join(dir, file), "utf8").matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!);

/** lib/ folders no single feature owns: infrastructure, surfaces and shared modules (docs/architecture.md). */
const CROSS_CUTTING = [
  "admin",
  "api",
  "backup",
  "dashboard",
  "db",
  "generated",
  "http",
  "idempotency",
  "jobs",
  "json",
  "mcp",
  "observability",
  "openapi",
  "pagination",
  "random",
  "rate-limit",
  "read-models",
  "server",
  "storage",
  "tools",
];

describe("feature indexes (docs/features)", () => {
  it("are listed in docs/features/README.md", () => {
    const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
    for (const file of indexes) expect(readme, file).toContain(`(${file})`);
  });

  it.each(indexes)("%s names only paths that exist", (file) => {
    const paths = pathsOf(file);
    expect(paths.length).toBeGreaterThan(0);
    const wrong = paths.filter((p) => {
      const full = path.join(root, p);
      if (!fs.existsSync(full)) return true;
      return p.endsWith("/") !== fs.statSync(full).isDirectory();
    });
    expect(wrong, `${file} names paths that do not exist (or a folder without /)`).toEqual([]);
  });

  it("cover every lib/ folder that is not cross-cutting", () => {
    const indexed = new Set(
      indexes
        .flatMap(pathsOf)
        .filter((p) => /^lib\/[^/]+\/$/.test(p))
        .map((p) => p.slice(4, -1)),
    );
    const folders = fs
      .readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    const unindexed = folders.filter((f) => !indexed.has(f) && !CROSS_CUTTING.includes(f));
    expect(unindexed, "add these folders to a docs/features index (or to CROSS_CUTTING when no feature owns them)").toEqual([]);
  });
});
