import "./helpers/isolated-env";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, inTransaction, sqlOf } from "@/lib/db/client";
import { emitEvent, emitEventsInTransaction } from "@/lib/events/emit";
import { newId } from "@/lib/ids";
import { enqueueInTransaction } from "@/lib/jobs/outbox";
import { createWorkspace } from "@/lib/workspaces/workspaces";
import { migrateTestDatabase } from "./helpers/database";

// The outbox's transactional API: job events written through the caller's transaction commit
// with its rows or not at all. (No runner runs here, so the stored events stay unprocessed.)

const jobEvent = (id: string) => getDb().jobEvent.findUnique({ where: { id } });

beforeAll(migrateTestDatabase);

describe("enqueueInTransaction", () => {
  it("stores the job event with the caller's commit", async () => {
    const id = newId("test");
    const afterCommit = await inTransaction((tx) => enqueueInTransaction(tx, [{ id, name: "test/outbox", data: { n: 1 } }]));
    await afterCommit();
    expect(await jobEvent(id)).toMatchObject({ id, name: "test/outbox", data: { n: 1 }, processedAt: null });
  });

  it("stores nothing when the caller's transaction rolls back", async () => {
    const id = newId("test");
    await expect(
      inTransaction(async (tx) => {
        await enqueueInTransaction(tx, [{ id, name: "test/outbox" }]);
        throw new Error("the caller's write failed");
      }),
    ).rejects.toThrow("the caller's write failed");
    expect(await jobEvent(id)).toBeNull();
  });

  it("works inside a Prisma interactive transaction too", async () => {
    const kept = newId("test");
    const dropped = newId("test");
    await getDb().$transaction((tx) => enqueueInTransaction(sqlOf(tx), [{ id: kept, name: "test/outbox" }]));
    await expect(
      getDb().$transaction(async (tx) => {
        await enqueueInTransaction(sqlOf(tx), [{ id: dropped, name: "test/outbox" }]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await jobEvent(kept)).not.toBeNull();
    expect(await jobEvent(dropped)).toBeNull();
  });
});

describe("webhook events and their deliveries", () => {
  let workspaceId: string;
  beforeAll(async () => {
    ({ workspaceId } = await createWorkspace({ name: "Outbox", plan: "pro" }));
    await getDb().webhookEndpoint.create({ data: { id: newId("whe"), workspaceId, url: "https://hooks.example/x", secret: "whsec_test" } });
  });

  it("emitEvent stores the event and its pending dispatch together, with no job: the first attempts' loop claims the dispatch", async () => {
    const emitted = await emitEvent({ workspaceId, type: "test", data: { message: "hello", triggeredBy: null } });
    expect(emitted).toMatchObject({ queued: true, stored: true });
    const dispatch = await getDb().webhookDispatch.findFirstOrThrow({ where: { eventId: emitted.id } });
    expect(dispatch).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: null });
    expect(await getDb().jobEvent.count({ where: { name: "webhook/deliver", data: { path: ["dispatchId"], equals: dispatch.id } } })).toBe(0);
  });

  it("concurrent emits stored together (group commit): each caller gets its own event; a dedupe key repeated among them stores one event, answered to both", async () => {
    // A workspace of its own: the other cases count this describe's dispatches.
    const { workspaceId } = await createWorkspace({ name: "Outbox burst", plan: "pro" });
    await getDb().webhookEndpoint.create({ data: { id: newId("whe"), workspaceId, url: "https://hooks.example/y", secret: "whsec_test" } });
    const key = newId("key");
    const emits = await Promise.all([
      ...Array.from({ length: 20 }, (_, n) => emitEvent({ workspaceId, type: "test", data: { message: `burst ${n}`, triggeredBy: null } })),
      emitEvent({ workspaceId, type: "test", data: { message: "first of a key", triggeredBy: null }, dedupeKey: key }),
      emitEvent({ workspaceId, type: "test", data: { message: "second of a key", triggeredBy: null }, dedupeKey: key }),
    ]);
    const burst = emits.slice(0, 20);
    expect(new Set(burst.map((e) => e.id)).size).toBe(20);
    expect(burst.every((e) => e.stored && e.queued)).toBe(true);
    const stored = await getDb().webhookEvent.findMany({ where: { id: { in: burst.map((e) => e.id) } } });
    expect(stored.map((e) => JSON.parse(e.body).data.message).sort()).toEqual(Array.from({ length: 20 }, (_, n) => `burst ${n}`).sort());
    expect(await getDb().webhookDispatch.count({ where: { eventId: { in: burst.map((e) => e.id) } } })).toBe(20);

    const [first, second] = emits.slice(20);
    expect(second!.id).toBe(first!.id);
    const keyed = await getDb().webhookEvent.findMany({ where: { workspaceId, dedupeKey: key } });
    expect(keyed).toHaveLength(1);
    expect(keyed[0]!.id).toBe(first!.id);
    expect(await getDb().webhookDispatch.count({ where: { eventId: first!.id } })).toBe(1);
  });

  it("emitEventsInTransaction leaves neither events nor dispatches behind when the caller rolls back", async () => {
    const dedupeKey = newId("key");
    await expect(
      getDb().$transaction(async (tx) => {
        const emitted = await emitEventsInTransaction(tx, workspaceId, "test", [{ data: { message: "hello", triggeredBy: null }, dedupeKey }]);
        expect(emitted.created).toBe(1);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await getDb().webhookEvent.findFirst({ where: { workspaceId, dedupeKey } })).toBeNull();
    expect(await getDb().webhookDispatch.count({ where: { workspaceId } })).toBe(1);
  });
});
