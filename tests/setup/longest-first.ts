// Vitest's default order on a clean clone (no results cache) is "larger files first", which often leaves a
// one-minute restart test to start last and run alone while the other workers idle. This sequencer starts the
// files that took longest in a recorded run first (tests/file-durations.json, `npm run test:durations` refreshes
// it), so the phase ends with the short files filling the gaps. A file missing from the record (a new one)
// starts first: its length is unknown, and starting it early is the safe guess.
//
// Only the long files go strictly longest first, whatever their project. After them come the short files of the
// projects that give each file a process of its own, then those of the projects whose files share one
// (`isolate: false`). Vitest keeps a shared worker for the next file only when the next file in its queue belongs to
// the same project; interleaved with the other projects' files, the integration project's 95 files started 28
// workers, each loading vitest and the helpers again (docs/testing.md, "Workers").
import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const RECORD = path.join(import.meta.dirname, "../file-durations.json");
/** A file recorded at least this long starts among the long ones, whatever its project. */
export const LONG_FILE_MS = 10_000;

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
    // Across the projects of one run too (the server projects share the workers).
    const block = (spec: TestSpecification) => (known(spec) >= LONG_FILE_MS ? 0 : spec.project.config.isolate === false ? 2 : 1);
    return [...files].sort((a, b) => {
      const [ba, bb] = [block(a), block(b)];
      if (ba !== bb) return ba - bb;
      const [da, db] = [known(a), known(b)];
      return da === db ? 0 : db > da ? 1 : -1;
    });
  }
}
