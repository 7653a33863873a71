import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createMemberKey, createTenant } from "../helpers/fixtures";
import { verifyWebhook } from "@adloom/sdk";
import { startReceiver, type Receiver } from "./helpers/receiver";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe("webhook endpoint management", () => {
  it("creates the endpoint with a secret, keeps the secret when the URL changes, and removes it", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);

    expect(await call("/api/v1/webhooks")).toMatchObject({ status: 200, body: { webhook: null } });

    const created = await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } });
    expect(created.status).toBe(201);
    const webhook = created.body.webhook;
    expect(webhook).toMatchObject({
      url: receiver.url,
      events: null,
      health: { lastDeliveryAt: null, lastDeliveryOutcome: null, lastResponseStatus: null, consecutiveFailures: 0 },
    });
    expect(webhook.id).toMatch(/^whk_/);
    expect(webhook.secret).toMatch(/^adlsig_[A-Za-z0-9_-]{43}$/);

    const moved = await call("/api/v1/webhooks", { method: "PUT", json: { url: `${receiver.url}/v2` } });
    expect(moved.status).toBe(200);
    expect(moved.body.webhook).toMatchObject({ id: webhook.id, secret: webhook.secret, url: `${receiver.url}/v2` });

    expect((await call("/api/v1/webhooks")).body.webhook).toMatchObject({ id: webhook.id, secret: webhook.secret, url: `${receiver.url}/v2` });

    expect(await call("/api/v1/webhooks", { method: "DELETE" })).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call("/api/v1/webhooks")).body.webhook).toBeNull();
    expect((await call("/api/v1/webhooks", { method: "DELETE" })).status).toBe(404);

    const again = await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } });
    expect(again.status).toBe(201);
    expect(again.body.webhook.secret).not.toBe(webhook.secret);
  });

  it("PATCH answers 404 until an endpoint exists, names unknown events, and sets or clears the subscription", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    const early = await call("/api/v1/webhooks", { method: "PATCH", json: { events: ["upload.completed"] } });
    expect(early.status).toBe(404);
    expect(early.body.error.code).toBe("not_found");

    await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } });
    const bad = await call("/api/v1/webhooks", { method: "PATCH", json: { events: ["upload.completed", "upload.exploded", "nope"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect(bad.body.error.message).toContain('"upload.exploded"');
    expect(bad.body.error.message).toContain('"nope"');
    expect(bad.body.error.message).not.toContain('"upload.completed"');
    expect((await call("/api/v1/webhooks")).body.webhook.events).toBeNull();

    const set = await call("/api/v1/webhooks", { method: "PATCH", json: { events: ["upload.failed", "upload.completed", "upload.failed"] } });
    expect(set.status).toBe(200);
    expect(set.body.webhook.events).toEqual(["upload.failed", "upload.completed"]);

    const cleared = await call("/api/v1/webhooks", { method: "PATCH", json: { events: null } });
    expect(cleared.body.webhook.events).toBeNull();

    expect((await call("/api/v1/webhooks", { method: "PATCH", json: { events: "all" } })).status).toBe(400);
    expect((await call("/api/v1/webhooks", { method: "PATCH", json: {} })).status).toBe(400);
  });

  it("refuses malformed URLs with 400 invalid_request", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    for (const url of ["not a url", "ftp://example.com/x", "https://user:pw@127.0.0.1/x", ""]) {
      const res = await call("/api/v1/webhooks", { method: "PUT", json: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    expect((await call("/api/v1/webhooks")).body.webhook).toBeNull();
  });

  it("is for owners and admins with unscoped keys only", async () => {
    const tenant = await createTenant();
    await api(tenant.key)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } });
    const admin = await createMemberKey(tenant, { role: "admin" });
    const editor = await createMemberKey(tenant, { role: "editor" });
    const viewer = await createMemberKey(tenant, { role: "viewer" });
    const scopedOwner = await createMemberKey(tenant, { role: "owner", scopes: ["upload", "publish", "edit"] });

    expect((await api(admin.key)("/api/v1/webhooks")).status).toBe(200);
    expect((await api(admin.key)("/api/v1/webhooks", { method: "PATCH", json: { events: null } })).status).toBe(200);

    const attempts: [string, RequestInit & { json?: unknown }][] = [
      ["/api/v1/webhooks", {}],
      ["/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } }],
      ["/api/v1/webhooks", { method: "PATCH", json: { events: null } }],
      ["/api/v1/webhooks", { method: "DELETE" }],
      ["/api/v1/webhooks/test", { method: "POST" }],
      ["/api/v1/webhooks/deliveries", {}],
      ["/api/v1/webhooks/deliveries/whd_x", { method: "POST" }],
    ];
    for (const key of [editor.key, viewer.key, scopedOwner.key]) {
      for (const [path, init] of attempts) {
        const res = await api(key)(path, init);
        expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(403);
        expect(res.body.error.code).toBe("forbidden");
      }
    }
    // Nothing changed.
    expect((await api(tenant.key)("/api/v1/webhooks")).body.webhook.url).toBe(receiver.url);
  });

  it("answers a change of events racing the endpoint's removal with the endpoint or 404, never a 5xx", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    for (let round = 0; round < 8; round++) {
      expect((await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } })).status).toBe(201);
      const patches = Array.from({ length: 6 }, (_, i) => call("/api/v1/webhooks", { method: "PATCH", json: { events: i % 2 ? null : ["upload.completed"] } }));
      const removal = call("/api/v1/webhooks", { method: "DELETE" });
      for (const res of await Promise.all(patches)) {
        if (res.status === 200) expect(res.body.webhook.url).toBe(receiver.url);
        else expect(res).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
      }
      expect((await removal).status).toBe(200);
    }
  });

  it("keeps workspaces apart: endpoints, deliveries and redeliveries", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const callA = api(a.key);
    const callB = api(b.key);
    const hookA = (await callA("/api/v1/webhooks", { method: "PUT", json: { url: `${receiver.url}/a` } })).body.webhook;
    const { event } = (await callA("/api/v1/webhooks/test", { method: "POST" })).body;
    await receiver.waitFor(1, { filter: (r) => r.body.includes(event.id) });
    const deliveriesA = await eventuallyDeliveries(callA, 1);

    expect((await callB("/api/v1/webhooks")).body.webhook).toBeNull();
    expect((await callB("/api/v1/webhooks/deliveries")).body.deliveries).toEqual([]);
    const foreign = await callB(`/api/v1/webhooks/deliveries/${deliveriesA[0].id}`, { method: "POST" });
    expect(foreign.status).toBe(404);
    expect((await callB("/api/v1/webhooks", { method: "PATCH", json: { events: null } })).status).toBe(404);
    expect((await callB("/api/v1/webhooks", { method: "DELETE" })).status).toBe(404);
    expect((await callB("/api/v1/webhooks/test", { method: "POST" })).status).toBe(404);

    await callB("/api/v1/webhooks", { method: "PUT", json: { url: `${receiver.url}/b` } });
    const stillA = (await callA("/api/v1/webhooks")).body.webhook;
    expect(stillA).toMatchObject({ id: hookA.id, url: `${receiver.url}/a`, secret: hookA.secret });
    // A's delivery is signed with A's secret.
    const received = receiver.requests.find((r) => r.body.includes(event.id))!;
    expect((await verifyWebhook({ body: received.body, header: received.headers["service-signature"], secret: hookA.secret })).id).toBe(event.id);
  });

  it("describes every webhook operation in the OpenAPI document", async () => {
    const res = await fetch(`${(await import("vitest")).inject("baseUrl")}/docs/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.paths["/api/v1/webhooks"]!).sort()).toEqual(["delete", "get", "patch", "put"]);
    expect(doc.paths["/api/v1/webhooks/test"]).toHaveProperty("post");
    expect(doc.paths["/api/v1/webhooks/deliveries"]).toHaveProperty("get");
    expect(doc.paths["/api/v1/webhooks/deliveries/{id}"]).toHaveProperty("post");
    expect(doc.components.schemas).toHaveProperty("WebhookEndpoint");
    expect(doc.components.schemas).toHaveProperty("WebhookDelivery");
  });
});

async function eventuallyDeliveries(call: ReturnType<typeof api>, n: number, query = ""): Promise<any[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await call(`/api/v1/webhooks/deliveries${query}`);
    if (res.body.deliveries?.length >= n) return res.body.deliveries;
    if (Date.now() > deadline) throw new Error(`expected ${n} deliveries, got ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
