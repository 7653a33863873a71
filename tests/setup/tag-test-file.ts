// For `npm run test:cpu` (scripts/test-cpu.mjs) only: the processes a test file starts (its servers, CLIs, compilers)
// carry the file's name in their environment, where the script reads it to charge their CPU to the file.
import { beforeAll } from "vitest";

if (process.env.ADLOOM_TAG_TEST_FILES === "1") {
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a hook's first parameter as its fixtures, which must be a pattern
  beforeAll(({}, suite) => {
    const file = "filepath" in suite ? String(suite.filepath) : suite.file.filepath;
    process.env.ADLOOM_TEST_FILE = `${process.env.TEST_DB}:${file.replace(/^.*?\/tests\//, "tests/")}`;
  });
}
