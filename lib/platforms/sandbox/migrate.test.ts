import { describe, expect, it } from "vitest";
import { sandboxMigrations, splitStatements } from "./migrate";

describe("the sandbox's migrations", () => {
  it("split into statements at line-ending semicolons, keeping DO blocks whole and dropping comment lines", () => {
    expect(splitStatements("-- note\nCREATE TABLE a (x int);\nDO $$\nBEGIN\n  PERFORM 1;\nEND $$;\nSELECT 1;\n")).toEqual([
      "CREATE TABLE a (x int);",
      "DO $$\nBEGIN\n  PERFORM 1;\nEND $$;",
      "SELECT 1;",
    ]);
  });

  it("are the numbered files of migrations/, in order, each with its checksum", () => {
    const migrations = sandboxMigrations();
    expect(migrations.map((m) => m.name)).toEqual([...migrations.map((m) => m.name)].sort());
    expect(migrations[0]).toMatchObject({ name: "0001_own_schema", checksum: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Every statement of the first one is whole (the adoption's DO block is one statement).
    expect(splitStatements(migrations[0]!.sql).filter((s) => s.startsWith("DO $$"))).toHaveLength(1);
  });
});
