import { dataDir } from "./helpers/isolated-env";
import { serve } from "inngest/next";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_ID, inngest } from "@/inngest/client";
import { getDb } from "@/lib/db/client";
import { EmbeddedRunner } from "@/lib/jobs/embedded";
import { canonicalJson, signBody } from "@adloom/job-runner";
import { getRun, listRuns } from "@/lib/jobs/runs";
import { sendEvent } from "@/lib/jobs/outbox";
import { getEmbeddedSigningKey } from "@/lib/jobs/signing-key";
import { seen, testFunctions } from "./fixtures/functions";
import { migrateTestDatabase } from "./helpers/database";
import { eventually, finishedRuns } from "./helpers/wait";
import { pacedUnder } from "../../scripts/test-pace.mjs";

const handler = serve({ client: inngest, functions: testFunctions, enableUnauthedSync: false });
const post = (req: Request) => handler.POST(req as never, undefined);
const backoffCalls: number[] = [];
let runner: EmbeddedRunner;

beforeAll(async () => {
  await migrateTestDatabase();
  runner = new EmbeddedRunner({
    db: getDb(),
    appId: APP_ID,
    functions: testFunctions,
    handler: post,
    signingKey: getEmbeddedSigningKey(dataDir),
    concurrency: 2,
    pollIntervalMs: 200,
    backoff: (attempt) => (backoffCalls.push(attempt), 100 * attempt),
    reclaimLeasesOnStart: true,
    logger: { info: () => {}, error: () => {} },
  });
  await runner.start();
});

afterAll(async () => {
  await runner?.stop();
});

describe("function options the embedded runner does not support", () => {
  const runnerFor = (options: Record<string, unknown>) =>
    new EmbeddedRunner({
      db: getDb(),
      appId: APP_ID,
      functions: [inngest.createFunction({ id: "test-optioned", triggers: [{ event: "test/optioned" }], ...options } as never, async () => null)],
      handler: post,
      signingKey: "signkey-test-00",
      concurrency: 1,
    });

  it.each([
    ["throttle", { throttle: { limit: 1, period: "1s" } }],
    ["rateLimit", { rateLimit: { limit: 1, period: "1m" } }],
    ["debounce", { debounce: { period: "5s" } }],
    ["idempotency", { idempotency: "event.data.id" }],
    ["cancel", { cancelOn: [{ event: "test/cancel", match: "data.id" }] }],
    ["batchEvents", { batchEvents: { maxSize: 10, timeout: "5s" } }],
    ["priority", { priority: { run: "event.data.rank" } }],
    ["singleton", { singleton: { key: "event.data.id", mode: "skip" } }],
    ["timeouts", { timeouts: { finish: "1m" } }],
  ])("refuses to start on %s", (option, declared) => {
    expect(() => runnerFor(declared)).toThrow(`Function "${APP_ID}-test-optioned": the embedded job runner does not support the option(s) "${option}"`);
  });

  it("refuses a keyed or account-wide concurrency limit, and more than one", () => {
    expect(() => runnerFor({ concurrency: { limit: 1, key: "event.data.workspaceId" } })).toThrow(/does not support a concurrency "key"/);
    expect(() => runnerFor({ concurrency: { limit: 1, scope: "account" } })).toThrow(/scoped to the function only, not "account"/);
    expect(() => runnerFor({ concurrency: [{ limit: 1 }, { limit: 2, key: "event.data.a" }] })).toThrow(/one concurrency limit per function, not 2/);
  });

  it("accepts a plain number or a function-scoped limit", () => {
    expect(runnerFor({ concurrency: 3 }).functionIds).toEqual([`${APP_ID}-test-optioned`]);
    expect(runnerFor({ concurrency: { limit: 2, scope: "fn" } }).functionIds).toEqual([`${APP_ID}-test-optioned`]);
  });
});

describe("embedded job runner", () => {
  it("runs each step once and memoizes its result", async () => {
    await sendEvent({ name: "test/three", data: { n: 1 } });
    const [run] = await finishedRuns("test-three-steps");
    expect(run!.status).toBe("completed");
    expect(run!.output).toEqual({ sum: 6 });
    expect([seen.steps.get("a:1"), seen.steps.get("b:1"), seen.steps.get("c:1")]).toEqual([1, 1, 1]);
    const detail = await getRun(run!.id);
    expect(detail!.steps.map((s) => [s.name, s.result])).toEqual([
      ["a", { type: "data", data: 1 }],
      ["b", { type: "data", data: 2 }],
      ["c", { type: "data", data: 3 }],
    ]);
  });

  it("starts work promptly after sendEvent", async () => {
    const started = Date.now();
    await sendEvent({ name: "test/three", data: { n: 2 } });
    await finishedRuns("test-three-steps", 2);
    // Woken by the event, not found by the 10 s safety poll: three steps take well under a second on a quiet machine,
    // up to 1.8 s beside the browser journeys; the bound is stretched by the run's pace, never as long as the poll.
    expect(Date.now() - started).toBeLessThan(pacedUnder(3000, 9_000));
  });

  it("deduplicates events by id", async () => {
    const first = await sendEvent({ name: "test/three", data: { n: 3 }, id: "order-3-created" });
    const second = await sendEvent({ name: "test/three", data: { n: 3 }, id: "order-3-created" });
    expect(first.ids).toEqual(["order-3-created"]);
    expect(second.ids).toEqual(["order-3-created"]);
    await finishedRuns("test-three-steps", 3);
    await new Promise((r) => setTimeout(r, 300));
    expect((await listRuns({ functionId: "test-three-steps" })).length).toBe(3);
    expect(seen.steps.get("a:3")).toBe(1);
  });

  it("sleeps with a durable timer, then continues", async () => {
    await sendEvent({ name: "test/sleep" });
    // The sleeping run and its wait, read together (the wait is deleted when the run wakes). A timeout names the run's
    // status: "completed" would mean the three-second nap passed between two polls.
    const { sleeping, waits } = await eventually(
      async () => {
        const [run] = await listRuns({ functionId: "test-sleeper" });
        if (run?.status !== "sleeping") throw new Error(`the run is ${run?.status ?? "not there yet"}`);
        const rows = await getDb().jobWait.findMany({ where: { runId: run.id } });
        return rows.length ? { sleeping: run, waits: rows } : undefined;
      },
      8000,
      "a sleeping run",
    );
    expect(waits.map((w) => w.kind)).toEqual(["sleep"]);
    // Due three seconds after it was written: measured against the row, not the test's clock, which a busy
    // machine may bring here after the timer is due (the duration itself is checked by `slept` below).
    const dueAfterMs = waits[0]!.until.getTime() - waits[0]!.createdAt.getTime();
    expect(dueAfterMs).toBeGreaterThan(2000);
    expect(dueAfterMs).toBeLessThanOrEqual(4000);
    expect(sleeping.nextAt!.getTime()).toBe(waits[0]!.until.getTime());
    const [run] = await finishedRuns("test-sleeper");
    expect(run!.status).toBe("completed");
    expect((run!.output as { slept: number }).slept).toBeGreaterThanOrEqual(3000);
  });

  it("retries a failing step with backoff and keeps earlier results", async () => {
    backoffCalls.length = 0;
    await sendEvent({ name: "test/flaky", data: { failures: 2 } });
    const [run] = await finishedRuns("test-flaky");
    expect(run!.status).toBe("completed");
    expect(run!.output).toEqual({ value: "ok", attempt: 0 });
    expect(seen.flakyFailures).toBe(2);
    expect(backoffCalls).toEqual([1, 2]);
  });

  it("fails a run after its retries are used up and keeps the error", async () => {
    await sendEvent({ name: "test/always-fails" });
    const [run] = await finishedRuns("test-always-fails");
    expect(run!.status).toBe("failed");
    expect(seen.steps.get("doomed")).toBe(3); // first attempt + retries: 2
    expect(run!.error).toMatchObject({ message: expect.stringContaining("still broken") });
  });

  it("stops at NonRetriableError and runs the onFailure handler", async () => {
    await sendEvent({ name: "test/permanent" });
    const [run] = await finishedRuns("test-permanent");
    expect(run!.status).toBe("failed");
    expect(run!.attempt).toBe(0);
    expect(seen.steps.get("refuse")).toBe(1);
    expect(run!.error).toMatchObject({ message: expect.stringContaining("bad input") });
    await finishedRuns("test-permanent-failure");
    expect(seen.failureHandled).toEqual([run!.id]);
  });

  it("never drives more runs at once than its concurrency", async () => {
    await sendEvent(Array.from({ length: 6 }, (_, i) => ({ name: "test/slow", data: { i } })));
    const runs = await finishedRuns("test-slow", 6);
    expect(runs.every((r) => r.status === "completed")).toBe(true);
    expect(seen.maxActive).toBe(2);
  });

  it("honours a function's concurrency limit, across every runner on the database", async () => {
    // A second runner over the same database claims too: the limit holds for both together.
    const other = new EmbeddedRunner({
      db: getDb(),
      appId: APP_ID,
      functions: testFunctions,
      handler: post,
      signingKey: getEmbeddedSigningKey(dataDir),
      concurrency: 4,
      pollIntervalMs: 100,
      logger: { info: () => {}, error: () => {} },
    });
    await other.start();
    try {
      await sendEvent(Array.from({ length: 5 }, (_, i) => ({ name: "test/serial", data: { i } })));
      const runs = await finishedRuns("test-serial", 5);
      expect(runs.map((r) => r.status)).toEqual(Array(5).fill("completed"));
      expect(seen.serialMaxActive).toBe(1);
    } finally {
      await other.stop();
    }
  });

  it("delivers step.sendEvent to the functions it triggers", async () => {
    await sendEvent({ name: "test/produce", data: { orderId: "ord_42" } });
    const [consumer] = await finishedRuns("test-consumer");
    expect(consumer!.output).toBe("ord_42");
    expect(consumer!.event).toMatchObject({ name: "test/consume", data: { orderId: "ord_42" } });
    expect(seen.chained).toEqual(["ord_42"]);
  });

  it("resumes step.waitForEvent on a matching event, or with null at its timeout", async () => {
    await sendEvent([
      { name: "test/approval.requested", data: { requestId: "r1" } },
      { name: "test/approval.requested", data: { requestId: "r2" } },
    ]);
    await eventually(async () => (await getDb().jobWait.count({ where: { kind: "event" } })) === 2, 5000, "two waits");
    await sendEvent({ name: "test/approval.given", data: { requestId: "r1", by: "ana" } });
    const runs = await finishedRuns("test-approval", 2);
    const byRequest = Object.fromEntries(runs.map((r) => [(r.event as { data: { requestId: string } }).data.requestId, r.output]));
    expect(byRequest).toEqual({ r1: { approvedBy: "ana" }, r2: { approvedBy: null } });
  });

  it("rejects executor requests that are not signed with the runner's key", async () => {
    const body = canonicalJson({
      event: { name: "test/three", data: { n: 99 }, id: "x", ts: 0 },
      events: [{ name: "test/three", data: { n: 99 }, id: "x", ts: 0 }],
      steps: {},
      ctx: { run_id: "run_forged", attempt: 0, stack: { stack: [], current: 0 } },
      version: -1,
    });
    const url = `http://localhost/api/inngest?fnId=${APP_ID}-test-three-steps&stepId=step`;
    const headers = { "content-type": "application/json" };
    const unsigned = await post(new Request(url, { method: "POST", body, headers }));
    const wrongKey = `signkey-prod-${"ab".repeat(32)}`;
    const forged = await post(new Request(url, { method: "POST", body, headers: { ...headers, "x-inngest-signature": signBody(body, wrongKey) } }));
    const signed = await post(
      new Request(url, { method: "POST", body, headers: { ...headers, "x-inngest-signature": signBody(body, getEmbeddedSigningKey(dataDir)) } }),
    );
    expect([unsigned.status, forged.status, signed.status]).toEqual([401, 401, 206]);
    expect(seen.steps.get("a:99")).toBe(1); // only the signed request ran anything
    const sync = await handler.PUT(new Request("http://localhost/api/inngest", { method: "PUT" }) as never, undefined);
    expect(sync.status).toBe(401);
  });
});
