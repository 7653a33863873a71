import { expect, it } from "vitest";
import { inject } from "vitest";
import { startServer } from "../helpers/server";

it("refuses unsigned and wrongly signed calls to the job endpoint from outside", async () => {
  const base = inject("baseUrl");
  const body = JSON.stringify({
    event: { name: "inngest/scheduled.timer", data: {} },
    events: [],
    steps: {},
    ctx: { run_id: "x", attempt: 0, stack: { stack: [] } },
    version: 2,
  });
  const unsigned = await fetch(`${base}/api/inngest?fnId=adloom-purge-job-history&stepId=step`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json" },
  });
  expect(unsigned.status).toBe(401);
  const forged = await fetch(`${base}/api/inngest?fnId=adloom-purge-job-history&stepId=step`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "X-Inngest-Signature": `t=${Math.floor(Date.now() / 1000)}&s=${"ab".repeat(32)}` },
  });
  expect(forged.status).toBe(401);
  const sync = await fetch(`${base}/api/inngest`, { method: "PUT" });
  expect(sync.ok).toBe(false);
});

it("leaves the jobs to Inngest, with the embedded runner off, when Inngest is configured", async () => {
  const server = await startServer({
    env: {
      INNGEST_EVENT_KEY: "test-event-key",
      INNGEST_SIGNING_KEY: "signkey-prod-" + "12".repeat(32),
      INNGEST_BASE_URL: "http://127.0.0.1:9",
      LOG_LEVEL: "info",
    },
    databaseUrl: undefined,
  });
  try {
    expect(server.output()).toMatch(/"msg":"ready".*"jobs":"inngest"/);
    // The SDK serves the endpoint in cloud mode: it answers, but only to calls signed with our key.
    const introspection = await fetch(`${server.url}/api/inngest`);
    expect(introspection.status).toBe(401);
    expect(introspection.headers.get("x-inngest-sdk-handled")).toBe("true");
  } finally {
    await server.stop();
  }
});
