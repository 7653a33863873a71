import "./helpers/isolated-env";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices, disposeServices } from "@/lib/services";
import { migrateTestDatabase } from "./helpers/database";

/**
 * With Inngest configured, the import's job events leave the process through Inngest's Event API. A local
 * fake of that API, written from Inngest's reference ("Sending events"; `POST {base}/e/{eventKey}` with one
 * event or an array, each `{ name, data, id?, ts? }`, answered `{ ids, status }`; an event `id` seen again
 * triggers nothing more), checks each request and records what arrives, at INNGEST_BASE_URL.
 */
const EVENT_KEY = "test-event-key";
interface SentEvent {
  name: string;
  data: Record<string, unknown>;
  id?: string;
}
const received: SentEvent[] = [];
let answer: { status: number; body: unknown } | null = null;

function problemOf(event: unknown): string | null {
  if (!event || typeof event !== "object" || Array.isArray(event)) return "an event must be an object";
  const e = event as Record<string, unknown>;
  if (typeof e.name !== "string" || !e.name) return "event name is required";
  if (e.data !== undefined && (typeof e.data !== "object" || e.data === null || Array.isArray(e.data))) return "event data must be an object";
  if (e.id !== undefined && typeof e.id !== "string") return "event id must be a string";
  if (e.ts !== undefined && typeof e.ts !== "number") return "event ts must be a number";
  const unknown = Object.keys(e).filter((k) => !["name", "data", "id", "ts", "user", "v"].includes(k));
  return unknown.length ? `unknown event fields: ${unknown.join(", ")}` : null;
}

const eventApi = http.createServer((req, res) => {
  const reply = (status: number, body: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    if (req.method !== "POST" || !req.url?.startsWith("/e/")) return reply(404, { error: "not found", status: 404 });
    if (req.url !== `/e/${EVENT_KEY}`) return reply(401, { error: "Event key not found", status: 401 });
    if (answer) return reply(answer.status, answer.body);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return reply(400, { error: "body is not JSON", status: 400 });
    }
    const events = Array.isArray(body) ? body : [body];
    const problem = events.map(problemOf).find(Boolean);
    if (problem) return reply(400, { error: problem, status: 400 });
    received.push(...(events as SentEvent[]));
    reply(200, { ids: events.map((e, i) => (e as SentEvent).id ?? `01FAKE${received.length}${i}`), status: 200 });
  });
});

await new Promise<void>((resolve) => eventApi.listen(0, "127.0.0.1", resolve));
// The process's services and the Inngest client read these when they are created: services again, the client on import.
process.env.INNGEST_EVENT_KEY = EVENT_KEY;
process.env.INNGEST_BASE_URL = `http://127.0.0.1:${(eventApi.address() as AddressInfo).port}/`;
await disposeServices();
createServices();
const { getDb } = await import("@/lib/db/client");
const { getConfig } = await import("@/lib/services");
const { createWorkspace } = await import("@/lib/workspaces/workspaces");
const { newId } = await import("@/lib/ids");
const { settleRun, startRun } = await import("@/lib/import/runs");
const { completeRun } = await import("@/lib/import/finish-run");

afterAll(async () => {
  await new Promise((resolve) => eventApi.close(resolve));
  for (const key of ["INNGEST_EVENT_KEY", "INNGEST_BASE_URL"]) delete process.env[key];
});

describe("import job events through Inngest's Event API", () => {
  let workspaceId: string;
  let userId: string;
  let connectionId: string;

  beforeAll(async () => {
    await migrateTestDatabase();
    expect(getConfig().jobs.mode).toBe("inngest");
    ({ workspaceId, ownerUserId: userId } = await createWorkspace({ name: "Inngest Co", plan: "pro" }));
    connectionId = newId("stc");
    await getDb().storageConnection.create({ data: { id: connectionId, workspaceId, provider: "url", name: "Links", createdById: userId } });
  });

  const files = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `https://cdn.example.com/${i}.png`,
      path: `https://cdn.example.com/${i}.png`,
      name: `${i}.png`,
      isFolder: false,
      sizeBytes: 10,
      revision: null,
      modifiedAt: null,
    }));
  const start = (n: number) =>
    startRun({
      workspaceId,
      connectionId,
      watchedFolderId: null,
      kind: "one_off",
      folderId: null,
      platform: "platform_a",
      createdById: userId,
      files: files(n),
    });

  it("one item event per file; the last settle queues the follow-up once per run id, a repeat while running again, none once complete", async () => {
    received.length = 0;
    const { id: runId } = await start(2);
    const items = await getDb().importItem.findMany({ where: { runId }, orderBy: { createdAt: "asc" } });
    expect(received).toEqual(items.map((i) => ({ name: "import/item.requested", id: i.id, data: { itemId: i.id, workspaceId }, ts: expect.any(Number) })));

    // The item jobs (run by Inngest, not here) record their files; the last one settles the run.
    received.length = 0;
    await getDb().importItem.updateMany({ where: { runId }, data: { status: "imported", finishedAt: new Date() } });
    await settleRun(runId);
    const transferred = { name: "import/run.transferred", id: `${runId}-transferred`, data: { runId }, ts: expect.any(Number) };
    expect(received).toEqual([transferred]);
    const run = await getDb().importRun.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: "running", importedCount: 2 });
    expect(run.transferredAt).toBeInstanceOf(Date);

    // The step again after a crash between its commit and its send: the same event id, which Inngest runs once.
    await settleRun(runId);
    expect(received).toEqual([transferred, transferred]);
    expect((await getDb().importRun.findUniqueOrThrow({ where: { id: runId } })).transferredAt).toEqual(run.transferredAt);

    // Once the run has completed (its summary notification goes out as an event too), a late settle queues nothing.
    await completeRun(runId);
    await settleRun(runId);
    expect(received.filter((e) => e.name === "import/run.transferred")).toEqual([transferred, transferred]);
  });

  it("a refused send fails the run's items with the Event API's reason instead of leaving them queued", async () => {
    received.length = 0;
    answer = { status: 401, body: { error: "Event key not found", status: 401 } };
    try {
      const { id: runId } = await start(1);
      const [item] = await getDb().importItem.findMany({ where: { runId } });
      expect(item).toMatchObject({ status: "failed", error: expect.stringMatching(/^The import job could not be started: .*Event key not found/) });
      expect(received).toEqual([]);
    } finally {
      answer = null;
    }
  });
});
