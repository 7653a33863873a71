// A vitest reporter for npm test's "slowest test files": each file's wall time in its worker, setup hooks and
// imports included (the JSON reporter's times leave out beforeAll, where a file starts its server or database).
import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class FileDurations implements Reporter {
  private rows: { file: string; project: string; ms: number }[] = [];

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
    this.rows.push({ file: path.relative(process.cwd(), module.moduleId), project: module.project.name, ms: Math.round(ms) });
  }

  onTestRunEnd(): void {
    if (process.env.ADLOOM_FILE_DURATIONS) fs.writeFileSync(process.env.ADLOOM_FILE_DURATIONS, JSON.stringify(this.rows));
  }
}
