import path from "node:path";
import { defineConfig } from "vitest/config";
import { paced } from "./scripts/test-pace.mjs";
import { WASM_TIERING_FLAG } from "./scripts/v8-flags.mjs";
import LongestFirst from "./tests/setup/longest-first.ts";

// The projects (docs/testing.md says which test goes where):
//   unit        everything that needs no server: lib/ and packages/ tests, one module graph per worker;
//               "unit-isolated" holds the tests/ files listed in IN_PROCESS (in-process database on PGlite, or
//               no database) and the lib/ files of UNIT_OWN_MODULE_GRAPH. No global setup, no build.
//   integration the rest of tests/: HTTP to one shared server (tests/global-setup.ts) on PGlite, one module graph
//               per worker; "integration-isolated" holds its files that need a module graph of their own.
//   postgres    the files of DATABASE_DEPENDENT again, on PostgreSQL.
// Everything else (packaging, runtimes, layers, fuzzing, the CLI) runs once.

/**
 * lib/ and packages/ tests that keep process-wide state (the service registry, environment variables, module mocks):
 * each keeps a module graph of its own (project "unit-isolated"). The other lib/ and packages/ tests import only
 * pure modules and share one graph per worker (project "unit", `isolate: false`): about 9 CPU-s less per run. One that
 * needs the registry fails loudly there ("This process already has its services"), and belongs here.
 */
export const UNIT_OWN_MODULE_GRAPH = [
  "lib/ai/ai.test.ts",
  "lib/creatives/probe-media.test.ts",
  "lib/platforms/sandbox/adapter.test.ts",
  "lib/server/plain-env.test.ts",
  "lib/services.test.ts",
  "lib/session/encryption.test.ts",
  "lib/session/throttle.test.ts",
];

/** tests/ files that start no server and use no inject("baseUrl"): they run in the unit-isolated project. */
export const IN_PROCESS = [
  "tests/accounts/pending-choice-keys.test.ts",
  "tests/ads/sandbox-platform.test.ts",
  "tests/platforms/contract.test.ts",
  "tests/api/idempotency-module.test.ts",
  "tests/api/observed-statuses.test.ts",
  "tests/api/wrapper-in-process.test.ts",
  "tests/automation/rerun.test.ts",
  "tests/dashboard/format.test.ts",
  "tests/dashboard/plan-trial.test.ts",
  "tests/db/embedded-database.test.ts",
  "tests/db/folder-foreign-keys.test.ts",
  "tests/db/migrate.test.ts",
  "tests/db/sandbox-schema.test.ts",
  "tests/jobs/crash-recovery.test.ts",
  "tests/jobs/cron.test.ts",
  "tests/jobs/runner.test.ts",
  "tests/jobs/platform-waits.test.ts",
  "tests/layers/layer-rules.test.ts",
  "tests/moderation/comments-pull-job.test.ts",
  "tests/notifications/fan-out.test.ts",
  "tests/notifications/purge.test.ts",
  "tests/moderation/pull-cursor.test.ts",
  "tests/leads/poll-queue.test.ts",
  "tests/moderation/rule-cap.test.ts",
  "tests/oauth/purge.test.ts",
  "tests/performance/job.test.ts",
  "tests/performance/rollup-health.test.ts",
  "tests/review/link-views.test.ts",
  "tests/session/sign-up.test.ts",
  "tests/sdk/generated-types.test.ts",
  "tests/setup/longest-first.test.ts",
  "tests/storage/local-driver.test.ts",
  "tests/storage/s3-driver.test.ts",
  "tests/upload-job/terminal-transitions.test.ts",
  "tests/webhooks/delivery-module.test.ts",
  "tests/webhooks/events-with-their-change.test.ts",
  "tests/webhooks/sweep.test.ts",
];

/**
 * Integration files that run app code inside the test process as well (its services and database, module mocks,
 * process.env): each keeps a module graph of its own (project "integration-isolated"). The other integration files
 * only speak HTTP to servers and spawn processes, so they share one module graph per worker (`isolate: false`):
 * loading the test helpers and their imports once per worker instead of once per file cut the phase's CPU by about
 * a third (docs/testing.md).
 */
export const OWN_MODULE_GRAPH = [
  "tests/ads/bulk-restart.test.ts",
  "tests/ai/assistant.test.ts",
  "tests/api/rate-limit.test.ts",
  "tests/dashboard/mail.test.ts",
  "tests/dashboard/server-actions.test.ts",
  "tests/import/restart.test.ts",
  "tests/jobs/inngest-event-api.test.ts",
  "tests/jobs/inngest-functions.test.ts",
  "tests/jobs/outbox.test.ts",
  "tests/ops/rolling-restart.test.ts",
  "tests/tasks/due-digest.test.ts",
  "tests/tools/one-way-in.test.ts",
  "tests/upload-job/chunked-restart.test.ts",
  "tests/upload-job/restart.test.ts",
  "tests/upload-job/resumable-restart.test.ts",
];

/**
 * The files whose assertions depend on the database engine behind the driver, so they run on PGlite
 * (unit or integration) AND on PostgreSQL: locks and concurrent writers, the job runner's durable rows and
 * leases, migrations, several instances on one database, and raw SQL whose results the two drivers decode.
 * PGlite is PostgreSQL compiled to WebAssembly with one connection: the same SQL, but no second writer.
 */
export const DATABASE_DEPENDENT = [
  "tests/import/s3-import.test.ts", // import runs: grouped counts, BigInt byte counts, skips by revision and content hash
  "tests/db/migrate.test.ts", // migrations through the WASM schema engine on both adapters
  "tests/db/sandbox-schema.test.ts", // the sandbox's own migrations and the upgrade of its old tables, on both adapters
  "tests/db/folder-foreign-keys.test.ts", // migrations carrying rows over (folder foreign keys, per-account rollup cursors and status), on both adapters
  "tests/jobs/runner.test.ts", // runner rows, leases, retries
  "tests/jobs/cron.test.ts", // one cron fire per slot across runners
  "tests/api/idempotency-module.test.ts", // concurrent claims of one key
  "tests/moderation/pull-cursor.test.ts", // concurrent pulls sharing a cursor
  "tests/api/admin-cli.test.ts", // the CLI opens the database itself or goes through the server
  "tests/api/rate-limit.test.ts", // INSERT … ON CONFLICT … RETURNING counters
  "tests/upload-job/restart.test.ts", // durable job state across a restart
  "tests/upload-job/chunked-restart.test.ts", // chunk progress across a kill -9 (conditional updates)
  "tests/ads/bulk-restart.test.ts",
  "tests/webhooks/restart.test.ts",
  "tests/tasks/due-digest.test.ts", // two instances on one database
  "tests/performance/rollup.test.ts", // two instances; raw upserts
  "tests/leads/pull.test.ts", // two instances; raw multi-row inserts
  "tests/ads/sandbox-platform.test.ts", // raw aggregates cast to float8
  "tests/creatives/creatives.test.ts", // raw DELETE … RETURNING
  "tests/webhooks/delivery.test.ts", // raw join read of the delivery attempt
  "tests/webhooks/kill.test.ts", // first attempts claimed under a lease across a kill -9
  "tests/ai/assistant.test.ts", // the credit ledger under 50 concurrent calls: conditional updates and a CHECK
  "tests/jobs/outbox.test.ts", // a row and its job event commit or roll back together
  "tests/notifications/fan-out.test.ts", // delivery claims (ON CONFLICT DO NOTHING) and notification dedupe keys
  "tests/session/sign-up.test.ts", // two sign-ups with one email at once: the email's unique index on PostgreSQL
  "lib/session/throttle.test.ts", // sign-in limits: one conditional upsert per attempt; two processes share one budget
  "tests/boards/concurrency.test.ts", // writes to one board at once: the board's row lock orders them
  "tests/team/members.test.ts", // two owners removing each other at once: the workspace's row lock orders them
  "tests/review/concurrent-decisions.test.ts", // the same decision at once: the creative's row lock orders them
  "tests/tasks/concurrent-updates.test.ts", // the same assignee added at once: the task's row lock orders the updates
  "tests/notifications/preferences.test.ts", // two changes at once: one upsert statement each
  "tests/automation/rerun.test.ts", // evaluations of one rule at once: the rule's evaluation slot (conditional insert/update)
  "tests/accounts/default-concurrency.test.ts", // default ad account changes at once: the workspace's row lock orders them
];

const root = import.meta.dirname;

// Workers per project, set on the projects themselves: a project's own `maxWorkers` (or one it inherits from the root
// config through `extends`) wins over the command line's `--maxWorkers`, which sets only the root's. The unit project
// computes all the time: one worker per core. The server projects spend much of their time waiting (server starts,
// restarts, schedules, retry delays, PostgreSQL): six keep both cores busy to the phase's end, where four left the
// last minute and a half half idle (docs/testing.md, "Workers").
// ADLOOM_SERVER_WORKERS overrides it for a measurement.
const UNIT_WORKERS = 2;
const SERVER_WORKERS = Number(process.env.ADLOOM_SERVER_WORKERS) || 6;
// Projects with different worker counts need different group orders: vitest runs the unit group, then the servers'.
const unitProject = { maxWorkers: UNIT_WORKERS, sequence: { groupOrder: 0 } };
const serverProject = { maxWorkers: SERVER_WORKERS, sequence: { groupOrder: 1 } };

export default defineConfig({
  resolve: {
    alias: [
      // The workspace packages are tested from their sources (the built dist is what the packaging test checks).
      { find: /^@adloom\/sdk\/catalog$/, replacement: path.join(root, "packages/sdk/src/catalog.ts") },
      { find: /^@adloom\/pglite-driver$/, replacement: path.join(root, "packages/pglite-driver/src/index.ts") },
      { find: /^@adloom\/job-runner$/, replacement: path.join(root, "packages/job-runner/src/index.ts") },
      { find: /^@adloom\/sdk$/, replacement: path.join(root, "packages/sdk/src/index.ts") },
      { find: /^@\//, replacement: `${root}/` },
    ],
  },
  test: {
    // Stretched when `npm test` finds the machine slower than usual (scripts/test-pace.mjs).
    testTimeout: paced(60_000),
    hookTimeout: paced(120_000),
    // expect.poll waits for background work (a job's run, a delivery, a log line): vitest's default of 1 s is a
    // guess at a quiet machine's speed, not a promise of the product's.
    expect: { poll: { timeout: paced(30_000), interval: 100 } },
    pool: "forks",
    // The workers open the embedded database and Prisma's WASM as the server does, with the server's V8 flag
    // (about 9 CPU-s less over the unit project).
    execArgv: [WASM_TIERING_FLAG],
    reporters: ["default"],
    // Longest files first, by a recorded run (tests/setup/longest-first.ts): a clean clone has no results cache.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          ...unitProject,
          include: ["lib/**/*.test.ts", "packages/*/src/**/*.test.ts"],
          exclude: [...UNIT_OWN_MODULE_GRAPH, "**/node_modules/**"],
          isolate: false,
          env: { TEST_DB: "pglite" },
        },
      },
      {
        extends: true,
        test: {
          name: "unit-isolated",
          ...unitProject,
          include: [...UNIT_OWN_MODULE_GRAPH, ...IN_PROCESS],
          env: { TEST_DB: "pglite" },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          ...serverProject,
          include: ["tests/**/*.test.ts"],
          exclude: [...IN_PROCESS, ...OWN_MODULE_GRAPH, "**/node_modules/**"],
          isolate: false,
          globalSetup: ["tests/global-setup.ts"],
          setupFiles: ["tests/setup/http-keep-alive.ts", "tests/setup/record-statuses.ts", "tests/setup/tag-test-file.ts"],
          env: { TEST_DB: process.env.TEST_DB ?? "pglite" },
        },
      },
      {
        extends: true,
        test: {
          name: "integration-isolated",
          ...serverProject,
          include: OWN_MODULE_GRAPH,
          globalSetup: ["tests/global-setup.ts"],
          setupFiles: ["tests/setup/http-keep-alive.ts", "tests/setup/record-statuses.ts", "tests/setup/tag-test-file.ts"],
          env: { TEST_DB: process.env.TEST_DB ?? "pglite" },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          ...serverProject,
          include: DATABASE_DEPENDENT,
          globalSetup: ["tests/global-setup.ts"],
          setupFiles: ["tests/setup/http-keep-alive.ts", "tests/setup/record-statuses.ts", "tests/setup/tag-test-file.ts"],
          env: { TEST_DB: "postgres" },
        },
      },
    ],
  },
});
