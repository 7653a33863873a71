/**
 * The one idempotency module that REST routes and tool calls share, driven directly against a
 * real database: what is kept for replay, what is released for a retry, and the daily purge.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

type Idempotency = typeof import("@/lib/idempotency");
let idem: Idempotency;
let workspaceId: string;

beforeAll(async () => {
  await useFreshDatabase("idempotency");
  idem = await import("@/lib/idempotency");
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  workspaceId = (await createWorkspace({ name: "Idem", plan: "pro" })).workspaceId;
});

const answer = (status: number) => async () => ({ status, body: JSON.stringify({ status }) });
const asStored = (value: { status: number; body: string }) => value;

describe("runIdempotently", () => {
  it("keeps a 4xx answer for replay and does not run the work again", async () => {
    const request = { workspaceId, key: "keep-400", fingerprint: "f1" };
    const first = await idem.runIdempotently(request, answer(400), asStored);
    expect(first).toEqual({ replayed: false, value: { status: 400, body: '{"status":400}' } });
    let ran = false;
    const second = await idem.runIdempotently(request, async () => ((ran = true), { status: 200, body: "{}" }), asStored);
    expect(ran).toBe(false);
    expect(second).toEqual({ replayed: true, response: { status: 400, body: '{"status":400}' } });
  });

  it.each([500, 503, 409, 429])("releases the key after a %i so the client may retry", async (status) => {
    const request = { workspaceId, key: `release-${status}`, fingerprint: "f" };
    await idem.runIdempotently(request, answer(status), asStored);
    const retry = await idem.runIdempotently(request, answer(201), asStored);
    expect(retry).toEqual({ replayed: false, value: { status: 201, body: '{"status":201}' } });
  });

  it("releases the key when the work throws, and refuses the key for a different request", async () => {
    const request = { workspaceId, key: "throws", fingerprint: "f" };
    await expect(idem.runIdempotently(request, async () => Promise.reject(new Error("boom")), asStored)).rejects.toThrow("boom");
    await idem.runIdempotently(request, answer(201), asStored);
    await expect(idem.runIdempotently({ ...request, fingerprint: "other" }, answer(201), asStored)).rejects.toMatchObject({ code: "conflict" });
  });

  it("purges expired keys and only those", async () => {
    const { getDb } = await import("@/lib/db/client");
    await idem.runIdempotently({ workspaceId, key: "old", fingerprint: "f" }, answer(200), asStored);
    await getDb().idempotencyRecord.update({
      where: { workspaceId_key: { workspaceId, key: "old" } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await idem.purgeExpiredIdempotencyKeys()).toBe(1);
    const left = await getDb().idempotencyRecord.findMany({ where: { workspaceId }, select: { key: true } });
    expect(left.map((r) => r.key)).not.toContain("old");
    expect(left.map((r) => r.key)).toContain("keep-400");
  });
});
