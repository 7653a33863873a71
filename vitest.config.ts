import path from "node:path";
import { defineConfig } from "vitest/config";

// Integration tests talk HTTP to a real server (started once in tests/global-setup.ts)
// on the database TEST_DB names: "pglite" (default) or "postgres".
export default defineConfig({
  resolve: {
    alias: [
      // The workspace packages are tested from their sources (the built dist is what the packaging test checks).
      { find: /^@adloom\/sdk\/catalog$/, replacement: path.join(import.meta.dirname, "packages/sdk/src/catalog.ts") },
      { find: /^@adloom\/pglite-driver$/, replacement: path.join(import.meta.dirname, "packages/pglite-driver/src/index.ts") },
      { find: /^@adloom\/sdk$/, replacement: path.join(import.meta.dirname, "packages/sdk/src/index.ts") },
      { find: /^@\//, replacement: `${import.meta.dirname}/` },
    ],
  },
  test: {
    include: ["tests/**/*.test.ts", "lib/**/*.test.ts", "packages/*/src/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup/record-statuses.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
  },
});
