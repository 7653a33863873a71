import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** README's "Benchmarks" table lists every `bench:*` npm script, and each script runs a file that exists. */
const root = path.resolve(import.meta.dirname, "../..");
const scripts = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>;
const benches = Object.entries(scripts).filter(([name]) => name.startsWith("bench:"));
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
const table = readme.slice(readme.indexOf("## Benchmarks"));

describe("benchmarks (README.md)", () => {
  it("has a row for every bench script", () => {
    expect(benches.length).toBeGreaterThan(0);
    const listed = new Set([...table.matchAll(/^\| `npm run (bench:[a-z-]+)/gm)].map((m) => m[1]));
    expect(benches.map(([name]) => name).filter((name) => !listed.has(name))).toEqual([]);
  });

  it("runs a file that exists for each", () => {
    for (const [name, command] of benches) {
      const file = command.split(" ").find((part) => part.startsWith("bench/"));
      expect(file, name).toBeDefined();
      expect(fs.existsSync(path.join(root, file!)), `${name}: ${file}`).toBe(true);
    }
  });
});
