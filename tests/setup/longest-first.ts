// Vitest's default order on a clean clone (no results cache) is "larger files first", which often leaves a
// one-minute restart test to start last and run alone while the other workers idle. This sequencer starts the
// files that took longest in a recorded run first (tests/file-durations.json, `npm run test:durations` refreshes
// it), so the phase ends with the short files filling the gaps. A file missing from the record (a new one)
// starts first: its length is unknown, and starting it early is the safe guess.
import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const RECORD = path.join(import.meta.dirname, "../file-durations.json");

/** "project:path" -> milliseconds, from the committed record; empty when there is none. */
export function recordedDurations(file = RECORD): Map<string, number> {
  try {
    const rows = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, number>;
    return new Map(Object.entries(rows));
  } catch {
    return new Map();
  }
}

export default class LongestFirst extends BaseSequencer {
  private readonly durations = recordedDurations();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = (spec: TestSpecification) =>
      this.durations.get(`${spec.project.name}:${path.relative(spec.project.config.root, spec.moduleId)}`) ?? Number.POSITIVE_INFINITY;
    // Across the projects of one run too (integration and integration-isolated share the workers).
    return [...files].sort((a, b) => {
      const [da, db] = [known(a), known(b)];
      return da === db ? 0 : db > da ? 1 : -1;
    });
  }
}
