/**
 * The route wrapper driven in-process with operations defined here, against a
 * real database: idempotency races and internal failures need a handler the
 * test controls. Everything else about the wrapper is tested over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { disposeServices } from "@/lib/services";
import { useFreshDatabase } from "../helpers/in-process-db";

type Wrapper = typeof import("@/lib/http/operation");
let wrapper: Wrapper;
let ownerKey: string;
let otherKey: string;
let calls = 0;
let gate: Promise<void> | null = null;
// Called as the handler starts (after the idempotency key is claimed), so a test can act while it runs.
let onHandlerStart: (() => void) | null = null;

beforeAll(async () => {
  await useFreshDatabase("wrapper");
  wrapper = await import("@/lib/http/operation");
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  const { createApiKey } = await import("@/lib/api-keys/api-keys");
  const a = await createWorkspace({ name: "A", plan: "pro" });
  ownerKey = (await createApiKey({ workspaceId: a.workspaceId, userId: a.ownerUserId })).key;
  const b = await createWorkspace({ name: "B", plan: "pro" });
  otherKey = (await createApiKey({ workspaceId: b.workspaceId, userId: b.ownerUserId })).key;
});
afterAll(disposeServices);

function counterRoute() {
  return wrapper.handle(
    wrapper.defineOperation({
      method: "POST",
      path: "/api/v1/test-counter",
      operationId: "testCounter",
      summary: "test",
      tag: "Test",
      capability: "copy.write",
      body: z.object({ n: z.number().int().min(0).max(10) }),
      success: { status: 201, description: "counted" },
      handler: async ({ body }) => {
        calls++;
        onHandlerStart?.();
        if (gate) await gate;
        if (body.n === 7) throw new Error("connection string postgres://secret@db");
        return { status: 201, body: { call: calls, n: body.n } };
      },
    }),
  );
}

async function send(key: string, body: unknown, idempotencyKey?: string, raw?: string) {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;
  const request = new Request("http://localhost/api/v1/test-counter", { method: "POST", headers, body: raw ?? JSON.stringify(body) });
  const response = await counterRoute()(request, { params: Promise.resolve({}) });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe("Idempotency-Key", () => {
  it("replays the first response (status and body) without running the handler again", async () => {
    const first = await send(ownerKey, { n: 1 }, "replay-1");
    expect(first.status).toBe(201);
    const before = calls;
    const again = await send(ownerKey, { n: 1 }, "replay-1");
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(calls).toBe(before);
  });

  it("refuses the same key for a different request with 409 conflict", async () => {
    await send(ownerKey, { n: 2 }, "different-1");
    const res = await send(ownerKey, { n: 3 }, "different-1");
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("conflict");
    expect(res.body.error.message).toMatch(/different request/);
  });

  it("answers 409 conflict 'already being processed' to a retry while the first is running", async () => {
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const started = new Promise<void>((r) => (onHandlerStart = r));
    const first = send(ownerKey, { n: 4 }, "inflight-1");
    await started;
    onHandlerStart = null;
    const second = await send(ownerKey, { n: 4 }, "inflight-1");
    expect(second.status).toBe(409);
    expect(second.body.error.message).toMatch(/already being processed/);
    expect(second.headers.get("retry-after")).toBe("1");
    gate = null;
    open();
    expect((await first).status).toBe(201);
    expect((await send(ownerKey, { n: 4 }, "inflight-1")).headers.get("idempotent-replayed")).toBe("true");
  });

  it("scopes keys to the workspace", async () => {
    const a = await send(ownerKey, { n: 5 }, "shared-key");
    const b = await send(otherKey, { n: 5 }, "shared-key");
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.call).not.toBe(a.body.call);
  });

  it("accepts keys up to 200 characters and refuses longer ones with 400", async () => {
    expect((await send(ownerKey, { n: 6 }, "k".repeat(200))).status).toBe(201);
    const res = await send(ownerKey, { n: 6 }, "k".repeat(201));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("does not keep a 500, so the same key can be retried", async () => {
    const before = calls;
    expect((await send(ownerKey, { n: 7 }, "fails-1")).status).toBe(500);
    expect((await send(ownerKey, { n: 7 }, "fails-1")).status).toBe(500);
    expect(calls).toBe(before + 2);
  });

  it("runs again once the 24-hour replay window has passed", async () => {
    await send(ownerKey, { n: 8 }, "expired-1");
    const { getDb } = await import("@/lib/db/client");
    await getDb().idempotencyRecord.updateMany({ where: { key: "expired-1" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const again = await send(ownerKey, { n: 8 }, "expired-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("validation and failures", () => {
  it("names the offending field of an invalid body", async () => {
    const res = await send(ownerKey, { n: 99 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toMatch(/^Invalid request body: n:/);
  });

  it("refuses malformed JSON and oversized bodies with 400", async () => {
    expect((await send(ownerKey, null, undefined, "{not json")).body.error.message).toMatch(/not valid JSON/);
    const huge = await send(ownerKey, null, undefined, JSON.stringify({ n: 1, pad: "x".repeat(1_100_000) }));
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toMatch(/exceeds/);
  });

  it("turns an unexpected failure into 500 internal_error without leaking internals", async () => {
    const res = await send(ownerKey, { n: 7 });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("internal_error");
    expect(JSON.stringify(res.body)).not.toMatch(/postgres|secret/);
    expect(res.body.error.message).toContain(res.headers.get("x-request-id"));
  });

  it("refuses a viewer's key with 403 forbidden naming the permission", async () => {
    const { addMember } = await import("@/lib/team/members");
    const { createApiKey } = await import("@/lib/api-keys/api-keys");
    const { getDb } = await import("@/lib/db/client");
    const ws = await getDb().workspace.findFirstOrThrow({ where: { name: "A" } });
    const { userId } = await addMember({ workspaceId: ws.id, email: "viewer@example.com", role: "viewer" });
    const viewerKey = (await createApiKey({ workspaceId: ws.id, userId })).key;
    const res = await send(viewerKey, { n: 1 });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: "forbidden", message: expect.stringContaining("library.write") });
  });

  it("refuses a key scoped without the needed scope with 403 naming the scope", async () => {
    const { createApiKey } = await import("@/lib/api-keys/api-keys");
    const { getDb } = await import("@/lib/db/client");
    const ws = await getDb().workspace.findFirstOrThrow({ where: { name: "A" }, include: { memberships: true } });
    const owner = ws.memberships.find((m) => m.role === "owner")!;
    const uploadOnly = (await createApiKey({ workspaceId: ws.id, userId: owner.userId, scopes: ["upload"] })).key;
    const res = await send(uploadOnly, { n: 1 });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('"edit"');
    const editKey = (await createApiKey({ workspaceId: ws.id, userId: owner.userId, scopes: ["edit"] })).key;
    expect((await send(editKey, { n: 1 })).status).toBe(201);
  });
});
