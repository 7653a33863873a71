import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification } from "vitest/node";
import LongestFirst, { recordedDurations } from "./longest-first";

const root = "/repo";
const spec = (project: string, file: string) =>
  ({ project: { name: project, config: { root, isolate: project !== "integration" } }, moduleId: path.join(root, file) }) as unknown as TestSpecification;
const names = (order: TestSpecification[]) => order.map((s) => `${s.project.name}:${path.relative(root, s.moduleId)}`);

/** The order the sequencer gives `specs`, with `recorded` as its record of durations ("project:path" -> ms). */
async function sorted(recorded: [string, number][], specs: TestSpecification[]): Promise<string[]> {
  const sequencer = new LongestFirst({} as never);
  (sequencer as unknown as { durations: Map<string, number> }).durations = new Map(recorded);
  return names(await sequencer.sort(specs));
}

describe("the longest-first test order", () => {
  it("starts unrecorded files, then recorded ones from the longest, whatever their project", async () => {
    const order = await sorted(
      [
        ["integration:tests/a.test.ts", 5_000],
        ["integration:tests/b.test.ts", 60_000],
        ["postgres:tests/a.test.ts", 90_000],
      ],
      [
        spec("integration", "tests/a.test.ts"),
        spec("postgres", "tests/a.test.ts"),
        spec("integration", "tests/new.test.ts"),
        spec("integration", "tests/b.test.ts"),
      ],
    );
    expect(order).toEqual(["integration:tests/new.test.ts", "postgres:tests/a.test.ts", "integration:tests/b.test.ts", "integration:tests/a.test.ts"]);
  });

  it("starts the short files of projects whose files share workers last, together, so their workers are reused", async () => {
    const recorded: [string, number][] = [
      ["integration:tests/short-a.test.ts", 4_000],
      ["integration:tests/short-b.test.ts", 9_000],
      ["integration:tests/long.test.ts", 12_000],
      ["postgres:tests/short.test.ts", 3_000],
      ["integration-isolated:tests/short.test.ts", 6_000],
    ];
    const order = await sorted(recorded, [
      spec("integration", "tests/short-a.test.ts"),
      spec("postgres", "tests/short.test.ts"),
      spec("integration", "tests/short-b.test.ts"),
      spec("integration-isolated", "tests/short.test.ts"),
      spec("integration", "tests/long.test.ts"),
    ]);
    expect(order).toEqual([
      "integration:tests/long.test.ts",
      "integration-isolated:tests/short.test.ts",
      "postgres:tests/short.test.ts",
      "integration:tests/short-b.test.ts",
      "integration:tests/short-a.test.ts",
    ]);
  });

  it("reads the committed record, and no record means no known durations", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "durations-"));
    fs.writeFileSync(path.join(dir, "d.json"), JSON.stringify({ "unit:lib/x.test.ts": 12 }));
    expect(recordedDurations(path.join(dir, "d.json")).get("unit:lib/x.test.ts")).toBe(12);
    expect(recordedDurations(path.join(dir, "missing.json")).size).toBe(0);
    expect(recordedDurations().size).toBeGreaterThan(100); // the committed record is found and read
  });
});
