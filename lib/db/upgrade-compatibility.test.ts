import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Instances of the previous build keep running on the database while a rolling upgrade starts the new one, which
 * migrates it first. A migration that takes away what the previous build reads or writes breaks those instances, so
 * each such migration is listed in docs/operations.md ("Upgrading"), where operators learn to stop every instance
 * before upgrading across it. This test keeps that table and the migrations in step.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

const INCOMPATIBLE: [RegExp, string][] = [
  [/\bDROP\s+TABLE\b/i, "drops a table"],
  [/\bDROP\s+COLUMN\b/i, "drops a column"],
  [/\bRENAME\b/i, "renames"],
  [/\bALTER\s+COLUMN\s+("[^"]+"|\w+)\s+(SET\s+DATA\s+)?TYPE\b/i, "changes a column's type"],
  [/\bSET\s+NOT\s+NULL\b/i, "makes a column required"],
  // A unique index may be what an older build's INSERT … ON CONFLICT names; a constraint what it relies on.
  [/\bDROP\s+(INDEX|CONSTRAINT)\b/i, "drops an index or constraint"],
  [/\bDROP\s+TYPE\b/i, "drops a type"],
];

/** The statements of a migration that take away something an older build may read or write, and what each does. */
function findIncompatibleChanges(sql: string): { change: string; statement: string }[] {
  const code = sql.replace(/\/\*[\s\S]*?\*\//g, "").replace(/--[^\n]*/g, "");
  const found: { change: string; statement: string }[] = [];
  for (const raw of code.split(";")) {
    const statement = raw.replace(/\s+/g, " ").trim();
    for (const [pattern, change] of INCOMPATIBLE) if (pattern.test(statement)) found.push({ change, statement });
    // An older build's INSERTs do not name a column added after it: required, it needs a default.
    const added = statement.split(/,\s*(?=ADD\s+COLUMN\b)/i).filter((part) => /\bADD\s+COLUMN\b/i.test(part));
    if (added.some((part) => /\bNOT\s+NULL\b/i.test(part) && !/\bDEFAULT\b/i.test(part))) {
      found.push({ change: "adds a required column without a default", statement });
    }
  }
  return found;
}

function migrationFiles(): { name: string; sql: string }[] {
  const app = fs
    .readdirSync(path.join(ROOT, "prisma/migrations"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({ name: e.name, sql: fs.readFileSync(path.join(ROOT, "prisma/migrations", e.name, "migration.sql"), "utf8") }));
  const sandboxDir = path.join(ROOT, "lib/platforms/sandbox/migrations");
  const sandbox = fs
    .readdirSync(sandboxDir)
    .filter((f) => f.endsWith(".sql"))
    .map((f) => ({ name: `sandbox/${f.replace(/\.sql$/, "")}`, sql: fs.readFileSync(path.join(sandboxDir, f), "utf8") }));
  return [...app, ...sandbox];
}

const described = (c: { change: string; statement: string }) => `${c.change} (${c.statement.slice(0, 80)})`;

/** The "Upgrading" section's table: migration name → what it says of the previous build's instances. */
function documentedMigrations(): Map<string, string> {
  const doc = fs.readFileSync(path.join(ROOT, "docs/operations.md"), "utf8");
  const section = doc.split(/^## /m).find((s) => s.startsWith("Upgrading"));
  if (!section) throw new Error('docs/operations.md has no "## Upgrading" section');
  const rows = new Map<string, string>();
  for (const line of section.split("\n")) {
    const cells = /^\| `([^`]+)` \|[^|]*\| (.+) \|$/.exec(line);
    if (cells) rows.set(cells[1]!, cells[2]!);
  }
  return rows;
}

describe("migrations a rolling upgrade cannot cross", () => {
  it("finds what takes something away from an older build, and nothing in what only adds", () => {
    const found = (sql: string) => findIncompatibleChanges(sql).map((c) => c.change);
    expect(found('ALTER TABLE "a" DROP COLUMN "b";')).toEqual(["drops a column"]);
    expect(found('DROP TABLE "a";')).toEqual(["drops a table"]);
    expect(found('ALTER TABLE "a" RENAME COLUMN "b" TO "c";')).toEqual(["renames"]);
    expect(found('ALTER TABLE "a" ALTER COLUMN "b" SET DATA TYPE BIGINT;')).toEqual(["changes a column's type"]);
    expect(found('ALTER TABLE "a" ALTER COLUMN "b" TYPE TEXT USING "b"::text;')).toEqual(["changes a column's type"]);
    expect(found('ALTER TABLE "a" ALTER COLUMN "b" SET NOT NULL;')).toEqual(["makes a column required"]);
    expect(found('ALTER TABLE "a" ADD COLUMN "b" TEXT NOT NULL, ADD COLUMN "c" TEXT;')).toEqual(["adds a required column without a default"]);
    expect(found('DROP INDEX "a_b_key";')).toEqual(["drops an index or constraint"]);
    expect(found('DROP TYPE "Kind";')).toEqual(["drops a type"]);
    // Only additions: a table, columns (required ones with a default), indexes, an enum value; comments are not read.
    const additive = `-- DROP TABLE "old" happens in a later release
      CREATE TABLE "a" ("id" TEXT NOT NULL, CONSTRAINT "a_pkey" PRIMARY KEY ("id"));
      ALTER TABLE "b" ADD COLUMN "c" TEXT, ADD COLUMN "d" BOOLEAN NOT NULL DEFAULT false;
      CREATE UNIQUE INDEX "b_c_key" ON "b"("c");
      ALTER TYPE "Kind" ADD VALUE 'new';
      /* ALTER TABLE "b" DROP COLUMN "e"; */`;
    expect(found(additive)).toEqual([]);
  });

  it("lists every migration that takes something away in docs/operations.md", () => {
    const documented = documentedMigrations();
    const files = migrationFiles();
    const undocumented = files
      .filter((m) => findIncompatibleChanges(m.sql).length > 0 && !documented.has(m.name))
      .map((m) => `${m.name}: ${findIncompatibleChanges(m.sql).map(described).join("; ")}`);
    expect(
      undocumented,
      'An instance of the build before these migrations, still running during a rolling upgrade, would fail on them. Split the change (add now, take away in a later release), or list the migration in docs/operations.md ("Upgrading")',
    ).toEqual([]);
    const names = new Set(files.map((m) => m.name));
    expect(
      [...documented.keys()].filter((name) => !names.has(name)),
      "rows of docs/operations.md's table naming no migration",
    ).toEqual([]);
    expect(documented.size).toBeGreaterThan(0);
  });
});
