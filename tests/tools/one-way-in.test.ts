/**
 * A REST-bound tool's curated route is a tool call: driven in-process through the real /api/v1
 * router against a real database, with authorization and the text check counted (the modules
 * are wrapped, not replaced), each runs once per request, and the curated route and
 * POST /api/v1/tools/{name} share one idempotency fingerprint.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { disposeServices } from "@/lib/services";
import { useFreshDatabase } from "../helpers/in-process-db";

const counts = vi.hoisted(() => ({ authorize: 0, textInput: 0 }));
vi.mock("@/lib/auth/authorize", async (original) => {
  const real = await original<typeof import("@/lib/auth/authorize")>();
  return { ...real, authorize: (...args: Parameters<typeof real.authorize>) => (counts.authorize++, real.authorize(...args)) };
});
vi.mock("@/lib/text-input", async (original) => {
  const real = await original<typeof import("@/lib/text-input")>();
  return { ...real, assertTextInput: (...args: Parameters<typeof real.assertTextInput>) => (counts.textInput++, real.assertTextInput(...args)) };
});

let route: (request: Request) => Promise<Response>;
let key: string;

beforeAll(async () => {
  await useFreshDatabase("one_way_in");
  const { operations } = await import("@/lib/api/v1");
  const { createRouter } = await import("@/lib/http/router");
  const router = createRouter(operations);
  route = (request) => router(request, { params: Promise.resolve({ path: new URL(request.url).pathname.split("/").slice(3) }) });
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  const { createApiKey } = await import("@/lib/api-keys/api-keys");
  const ws = await createWorkspace({ name: "One way", plan: "pro" });
  key = (await createApiKey({ workspaceId: ws.workspaceId, userId: ws.ownerUserId })).key;
});
afterAll(disposeServices);
beforeEach(() => {
  counts.authorize = 0;
  counts.textInput = 0;
});

async function send(method: string, path: string, body?: unknown, idempotencyKey?: string) {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const response = await route(new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: response.status, replayed: response.headers.get("idempotent-replayed"), body: await response.json() };
}

describe("one way in", () => {
  it("authorizes once and checks the text once per request on a curated REST route", async () => {
    const res = await send("DELETE", "/api/v1/creatives", { ids: ["crv_missing1"] });
    expect(res).toMatchObject({ status: 200, body: { deleted: 0 } });
    expect(counts.authorize).toBe(1);
    // One check per request part (path parameters, query, body), each once.
    expect(counts.textInput).toBe(3);
  });

  it("authorizes once and checks the text once per request on POST /api/v1/tools/{name}", async () => {
    const res = await send("POST", "/api/v1/tools/delete_creatives", { ids: ["crv_missing2"] });
    expect(res).toMatchObject({ status: 200, body: { result: { deleted: 0 } } });
    expect(counts.authorize).toBe(1);
    // The tool's name (path) and its arguments (body), each once.
    expect(counts.textInput).toBe(2);
  });

  it("keeps REST's error codes on the curated route and the tool codes on the tool route", async () => {
    const rest = await send("DELETE", "/api/v1/creatives", { ids: [] });
    expect(rest.status).toBe(400);
    expect(rest.body.error.code).toBe("invalid_request");
    expect(rest.body.error.message).toMatch(/^Invalid request body: ids/);
    const tool = await send("POST", "/api/v1/tools/delete_creatives", { ids: [] });
    expect(tool.status).toBe(400);
    expect(tool.body.error.code).toBe("invalid_input");
  });

  it("shares one idempotency fingerprint between the curated route and the tool route", async () => {
    const first = await send("DELETE", "/api/v1/creatives", { ids: ["crv_missing3"] }, "one-way-1");
    expect(first).toMatchObject({ status: 200, replayed: null, body: { deleted: 0 } });
    const viaTool = await send("POST", "/api/v1/tools/delete_creatives", { ids: ["crv_missing3"] }, "one-way-1");
    expect(viaTool).toMatchObject({ status: 200, replayed: "true", body: { result: { deleted: 0 } } });
    const again = await send("DELETE", "/api/v1/creatives", { ids: ["crv_missing3"] }, "one-way-1");
    expect(again).toMatchObject({ status: 200, replayed: "true", body: { deleted: 0 } });
    const other = await send("DELETE", "/api/v1/creatives", { ids: ["crv_missing4"] }, "one-way-1");
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("conflict");
  });

  it("refuses text a schema must never see (NUL) on the curated route with REST's envelope", async () => {
    const res = await send("DELETE", "/api/v1/creatives", { ids: ["crv_\u0000"] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toMatch(/NUL/);
  });
});
