import type { TestProject } from "vitest/node";
import { buildIfStale } from "../scripts/build-if-stale.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPackagesIfStale } from "../scripts/build-packages.mjs";
import { readObservations, undocumentedStatuses } from "./helpers/observed-statuses";
import { startPostgres } from "./helpers/postgres";
import { startServer, type TestServer } from "./helpers/server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared server every integration test may use (isolated by workspace). */
    baseUrl: string;
    dataDir: string;
    /** "pglite" or "postgres" */
    testDb: string;
    /** Admin URL of the test PostgreSQL server (postgres runs only), for tests that need a fresh database. */
    postgresUrl: string;
    /** The shared server's DATABASE_URL ("" on PGlite): what an operator tool must be given to reach its database. */
    databaseUrl: string;
    /** Where each test process records the statuses it saw (tests/helpers/observed-statuses.ts). */
    observedStatusesDir: string;
  }
}

/**
 * Builds the app once, then starts one shared server: on PostgreSQL for the "postgres" project (vitest.config.ts),
 * otherwise on the database TEST_DB names (PGlite by default).
 */
export default async function setup(project: TestProject) {
  const testDb = project.name === "postgres" ? "postgres" : (process.env.TEST_DB ?? "pglite");
  buildIfStale({ quiet: true });
  buildPackagesIfStale(); // the CLI and packaging tests run the built packages
  let pg: Awaited<ReturnType<typeof startPostgres>> | undefined;
  let server: TestServer;
  let databaseUrl = "";
  // The every-minute lead poll would pull every workspace of the whole suite in the background; lead tests
  // pull explicitly, or start their own server where the schedule itself is under test. The quarter-hourly sync of
  // watched folders likewise: the import tests sync their folders themselves, and expect what each sync imports.
  // Failing pushes wait out every platform retry (1+3+8+15 s by default) before they end failed: the same
  // five attempts, shorter waits, keep those tests from idling (tests/upload-job/restart.test.ts keeps long ones).
  const env = { LEADS_POLL: "0", IMPORT_SYNC: "0", COMMENTS_POLL: "0", PLATFORM_RETRY_DELAYS_MS: "200,400,800,1600" };
  if (testDb === "postgres") {
    pg = await startPostgres();
    databaseUrl = await pg.createDatabase("shared");
    server = await startServer({ databaseUrl, env, longLived: true });
  } else {
    server = await startServer({ env, longLived: true });
  }
  project.provide("baseUrl", server.url);
  project.provide("dataDir", server.dataDir);
  project.provide("testDb", testDb);
  project.provide("postgresUrl", pg?.url ?? "");
  project.provide("databaseUrl", databaseUrl);
  const observedDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-observed-"));
  project.provide("observedStatusesDir", observedDir);
  return async () => {
    // The OpenAPI document must list every status the suite saw an operation answer.
    let undocumented: string[] = [];
    try {
      const doc = await fetch(`${server.url}/docs/openapi.json`).then((r) => r.json());
      undocumented = undocumentedStatuses(doc, readObservations(observedDir));
    } finally {
      fs.rmSync(observedDir, { recursive: true, force: true });
      await server.stop();
      await pg?.stop();
    }
    // npm test (scripts/test.mjs) reads this report: vitest does not fail a run on a teardown error.
    // Several projects of one run (integration and integration-isolated) add to the same report.
    const report = process.env.ADLOOM_OPENAPI_STATUS_REPORT;
    if (report) {
      const earlier: string[] = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, "utf8")).undocumented : [];
      fs.writeFileSync(report, JSON.stringify({ undocumented: [...new Set([...earlier, ...undocumented])].sort() }));
    }
    if (undocumented.length) {
      throw new Error(`The tests saw statuses /docs/openapi.json does not document (fix lib/openapi/document.ts):\n  ${undocumented.join("\n  ")}`);
    }
  };
}
