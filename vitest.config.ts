import path from "node:path";
import { defineConfig } from "vitest/config";

// Integration tests talk HTTP to a real server (started once in tests/global-setup.ts)
// on the database TEST_DB names: "pglite" (default) or "postgres".
export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    include: ["tests/**/*.test.ts", "lib/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
  },
});
