import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import { verifyWebhook } from "@adloom/sdk";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { until } from "../helpers/wait";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** A tenant whose endpoint is the receiver at a path of its own (so requests can be told apart). */
async function tenantWithEndpoint(events?: string[]) {
  const tenant = await createTenant();
  const call = api(tenant.key);
  const path = `/t/${tenant.workspaceId}`;
  const url = receiver.url.replace(/\/hooks$/, path);
  const { webhook } = (await call("/api/v1/webhooks", { method: "PUT", json: { url } })).body;
  if (events) await call("/api/v1/webhooks", { method: "PATCH", json: { events } });
  const received = () => receiver.requests.filter((r) => r.path === path);
  return { tenant, call, secret: webhook.secret as string, received, path };
}

describe("webhook delivery", () => {
  it("delivers a signed test event that the receiver-side verifier accepts, and logs it", async () => {
    const { call, secret, received } = await tenantWithEndpoint();
    const fired = await call("/api/v1/webhooks/test", { method: "POST" });
    expect(fired.status).toBe(202);
    expect(fired.body.event).toMatchObject({ type: "test" });
    expect(fired.body.event.id).toMatch(/^evt_/);

    const [req] = await until(async () => received().length >= 1 && received(), "the test delivery");
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.headers["service-event-id"]).toBe(fired.body.event.id);
    const event = await verifyWebhook({ body: req!.body, header: req!.headers["service-signature"], secret });
    expect(event).toMatchObject({ id: fired.body.event.id, type: "test", createdAt: fired.body.event.createdAt });
    expect(event.data).toMatchObject({ message: expect.any(String) });
    await expect(verifyWebhook({ body: req!.body, header: req!.headers["service-signature"], secret: "whsec_wrong" })).rejects.toThrow();

    const deliveries = await until(async () => {
      const res = await call("/api/v1/webhooks/deliveries");
      return res.body.deliveries.length >= 1 && res.body.deliveries;
    }, "the log entry");
    expect(deliveries[0]).toMatchObject({
      eventId: event.id,
      eventType: "test",
      attempt: 1,
      trigger: "initial",
      outcome: "succeeded",
      response: { status: 200 },
      error: null,
      nextRetryAt: null,
      request: { body: req!.body },
    });
    expect(deliveries[0].request.headers["service-signature"]).toBe(req!.headers["service-signature"]);
    const health = (await call("/api/v1/webhooks")).body.webhook.health;
    expect(health).toMatchObject({ lastDeliveryOutcome: "succeeded", lastResponseStatus: 200, consecutiveFailures: 0 });
    expect(health.lastDeliveryAt).not.toBeNull();
  });

  it("delivers test events whatever the endpoint subscribes to", async () => {
    const { call, received } = await tenantWithEndpoint(["upload.failed"]);
    const { event } = (await call("/api/v1/webhooks/test", { method: "POST" })).body;
    await until(async () => received().some((r) => JSON.parse(r.body).id === event.id), "the test event");
    const none = await tenantWithEndpoint([]);
    const second = (await none.call("/api/v1/webhooks/test", { method: "POST" })).body.event;
    await until(async () => none.received().some((r) => JSON.parse(r.body).id === second.id), "the test event with no subscriptions");
  });

  it("test events need an endpoint", async () => {
    const tenant = await createTenant();
    const res = await api(tenant.key)("/api/v1/webhooks/test", { method: "POST" });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("redelivers a logged delivery with the same event id and the same bytes, as a new log entry", async () => {
    const { call, secret, received } = await tenantWithEndpoint();
    const { event } = (await call("/api/v1/webhooks/test", { method: "POST" })).body;
    const [first] = await until(async () => received().length >= 1 && received(), "the first delivery");
    const [logged] = await until(async () => {
      const d = (await call("/api/v1/webhooks/deliveries")).body.deliveries;
      return d.length >= 1 && d;
    }, "the log entry");

    const again = await call(`/api/v1/webhooks/deliveries/${logged.id}`, { method: "POST" });
    expect(again.status).toBe(200);
    expect(again.body.delivery).toMatchObject({ eventId: event.id, trigger: "redelivery", outcome: "succeeded", attempt: 1 });
    expect(again.body.delivery.id).not.toBe(logged.id);

    expect(received()).toHaveLength(2);
    const second = received()[1]!;
    expect(second.body).toBe(first!.body);
    expect((await verifyWebhook({ body: second.body, header: second.headers["service-signature"], secret })).id).toBe(event.id);

    const log = (await call("/api/v1/webhooks/deliveries")).body.deliveries;
    expect(log.map((d: { id: string }) => d.id)).toEqual([again.body.delivery.id, logged.id]);
    expect((await call("/api/v1/webhooks/deliveries/whd_doesnotexist", { method: "POST" })).status).toBe(404);

    await call("/api/v1/webhooks", { method: "DELETE" });
    const gone = await call(`/api/v1/webhooks/deliveries/${logged.id}`, { method: "POST" });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toMatch(/No webhook endpoint/);
  });

  it("pages the log newest first with cursors and filters it by event type and outcome", async () => {
    const { call, path } = await tenantWithEndpoint();
    // Make every request to this tenant's path fail until told otherwise, so the log has failures too.
    let failing = true;
    receiver.respondWith((r) => ({ status: r.path === path && failing ? 500 : 200 }));
    try {
      const failed = (await call("/api/v1/webhooks/test", { method: "POST" })).body.event;
      // Attempt 1 and the immediate retry fail; the next retry is a minute away.
      await until(async () => (await call(`/api/v1/webhooks/deliveries?eventId=${failed.id}`)).body.deliveries.length >= 2 || undefined, "two failed attempts");
      failing = false;
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await call("/api/v1/webhooks/test", { method: "POST" })).body.event.id);
      await until(async () => (await call("/api/v1/webhooks/deliveries?outcome=succeeded")).body.deliveries.length >= 3 || undefined, "three successes");

      const all: any[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { body: { deliveries: any[]; nextCursor: string | null } } = await call(
          `/api/v1/webhooks/deliveries?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        expect(res.body.deliveries.length).toBeLessThanOrEqual(2);
        all.push(...res.body.deliveries);
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor);
      expect(all).toHaveLength(5);
      expect(pages).toBe(3);
      expect(new Set(all.map((d) => d.id)).size).toBe(5);
      const times = all.map((d) => Date.parse(d.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);

      const failures = (await call("/api/v1/webhooks/deliveries?outcome=failed")).body.deliveries;
      expect(failures).toHaveLength(2);
      expect(failures.map((d: any) => [d.attempt, d.trigger, d.response.status])).toEqual([
        [2, "retry", 500],
        [1, "initial", 500],
      ]);
      expect(failures[0].nextRetryAt).not.toBeNull();
      expect(failures[0].error).toMatch(/500/);
      expect((await call("/api/v1/webhooks/deliveries?eventType=test")).body.deliveries).toHaveLength(5);
      expect((await call("/api/v1/webhooks/deliveries?eventType=upload.completed")).body.deliveries).toHaveLength(0);
      expect((await call("/api/v1/webhooks/deliveries?eventType=bogus")).status).toBe(400);
      expect((await call("/api/v1/webhooks/deliveries?outcome=maybe")).status).toBe(400);
      expect((await call("/api/v1/webhooks/deliveries?cursor=garbage")).status).toBe(400);
      expect((await call("/api/v1/webhooks/deliveries?limit=0")).status).toBe(400);

      const health = (await call("/api/v1/webhooks")).body.webhook.health;
      expect(health.consecutiveFailures).toBe(0);
      expect(health.lastDeliveryOutcome).toBe("succeeded");
    } finally {
      receiver.respondWith(() => ({ status: 200 }));
      // Stop the failed event's pending retry.
      await call("/api/v1/webhooks", { method: "DELETE" });
    }
  });
});
