import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import type { TestServer } from "../helpers/server";
import { filePart, postUploads } from "../uploads/helpers";
import { verifyWebhook } from "@adloom/sdk";
import { freshStorage, startOwnServer } from "./helpers/own-server";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { until } from "../helpers/wait";
import { paced, pacedUnder } from "../../scripts/test-pace.mjs";

/**
 * A bound that tells "woken at once" from "found by the embedded database's 10 s safety poll": stretched by the
 * run's pace, but never so far that the poll would pass it.
 */
const promptMs = (ms: number) => pacedUnder(ms, 9_000);

// A server of our own with a shrunk schedule: immediate retry, then waits of 1 s and 2 s, then give up.
let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  server = await startOwnServer(await freshStorage("retries"), { WEBHOOK_RETRY_SCHEDULE: "1s,2s", PLATFORM_RETRY_DELAYS_MS: "50,50" });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

async function setup(responder: (attempt: number) => number, events?: string[]) {
  const tenant: Tenant = await createTenant({ dataDir: server.dataDir });
  const call = api(tenant.key, server.url);
  const path = `/r/${tenant.workspaceId}`;
  const { webhook } = (await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, path) } })).body;
  if (events) await call("/api/v1/webhooks", { method: "PATCH", json: { events } });
  const received = () => receiver.requests.filter((r) => r.path === path);
  const previous = receiver;
  previous.respondWith((r) => {
    if (r.path !== path) return { status: 200 };
    return { status: responder(received().indexOf(r) + 1) };
  });
  return { tenant, call, received, secret: webhook.secret as string };
}

describe("webhook retries", () => {
  it("retries a failure once immediately, then succeeds", async () => {
    const { call, received, secret } = await setup((n) => (n === 1 ? 503 : 200));
    const sentAt = Date.now();
    const { event } = (await call("/api/v1/webhooks/test", { method: "POST" })).body;
    const [first, second] = await until(async () => received().length >= 2 && received(), "two attempts");
    // Woken by the emit, not found by the embedded database's 10 s safety poll (lib/webhooks/first-attempts.ts).
    expect(first!.at - sentAt).toBeLessThan(promptMs(3000));
    expect(second!.at - first!.at).toBeLessThan(paced(2000));
    expect(second!.body).toBe(first!.body);
    expect((await verifyWebhook({ body: second!.body, header: second!.headers["service-signature"], secret })).id).toBe(event.id);

    const log = await until(async () => {
      const d = (await call("/api/v1/webhooks/deliveries")).body.deliveries;
      return d.length >= 2 && d;
    }, "the log");
    expect(log.map((d: any) => [d.attempt, d.trigger, d.outcome, d.response.status])).toEqual([
      [2, "retry", "succeeded", 200],
      [1, "initial", "failed", 503],
    ]);
    // Immediate: the failed attempt scheduled its retry for the moment it was logged (the wall-clock gap above is
    // only a sanity bound, since a busy machine can stretch it past the schedule's next step of 1 s).
    expect(log[1].nextRetryAt).toBe(log[1].createdAt);
    expect((await call("/api/v1/webhooks")).body.webhook.health).toMatchObject({ consecutiveFailures: 0, lastDeliveryOutcome: "succeeded" });
  });

  it("backs off by the configured schedule, keeping the event id and bytes", async () => {
    const { call, received } = await setup((n) => (n <= 3 ? 500 : 200));
    const { event } = (await call("/api/v1/webhooks/test", { method: "POST" })).body;
    const attempts = await until(async () => received().length >= 4 && received(), "four attempts");
    const gaps = attempts.slice(1).map((r, i) => r.at - attempts[i]!.at);
    expect(gaps[0]).toBeLessThan(paced(2000)); // immediate (its schedule is checked from the log below)
    expect(gaps[1]).toBeGreaterThanOrEqual(950); // 1 s
    expect(gaps[2]).toBeGreaterThanOrEqual(1950); // 2 s
    // Each retry at its time: the runner knows when a rescheduled run is due, and does not wait for the embedded
    // database's 10 s safety poll (lib/jobs/embedded/index.ts).
    expect(gaps[1]).toBeLessThan(promptMs(4000));
    expect(gaps[2]).toBeLessThan(promptMs(5000));
    const log = await until(async () => {
      const d = (await call("/api/v1/webhooks/deliveries")).body.deliveries;
      return d.length >= 4 && d;
    }, "four log entries");
    const scheduledWaits = log
      .slice(1)
      .reverse()
      .map((d: any) => Date.parse(d.nextRetryAt) - Date.parse(d.createdAt));
    expect(scheduledWaits).toEqual([0, 1000, 2000]);
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
    expect(attempts.every((r) => JSON.parse(r.body).id === event.id)).toBe(true);

    const health = await until(async () => {
      const h = (await call("/api/v1/webhooks")).body.webhook.health;
      return h.lastDeliveryOutcome === "succeeded" && h;
    }, "health after success");
    expect(health.consecutiveFailures).toBe(0);
  });

  it("gives up after the last scheduled retry and shows it in the log and the endpoint's health", async () => {
    const { call, received } = await setup(() => 500);
    await call("/api/v1/webhooks/test", { method: "POST" });
    await until(async () => received().length >= 4 && received(), "four attempts");
    const log = await until(async () => {
      const d = (await call("/api/v1/webhooks/deliveries")).body.deliveries;
      return d.length >= 4 && d;
    }, "four log entries");
    await new Promise((r) => setTimeout(r, 3500)); // longer than any wait of the schedule
    expect(received()).toHaveLength(4);
    expect(log.map((d: any) => d.attempt)).toEqual([4, 3, 2, 1]);
    expect(log.every((d: any) => d.outcome === "failed")).toBe(true);
    expect(log[0].nextRetryAt).toBeNull();
    expect(log[1].nextRetryAt).not.toBeNull();
    expect((await call("/api/v1/webhooks")).body.webhook.health).toMatchObject({
      consecutiveFailures: 4,
      lastDeliveryOutcome: "failed",
      lastResponseStatus: 500,
    });
  });

  it("an endpoint removed while a retry is in flight stops that event's retries: none reaches the endpoint set next", async () => {
    const tenant = await createTenant({ dataDir: server.dataDir });
    const call = api(tenant.key, server.url);
    const removed = `/removed/${tenant.workspaceId}`;
    const replacement = `/replacement/${tenant.workspaceId}`;
    await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, removed) } });
    let retryArrived!: () => void;
    const retrying = new Promise<void>((resolve) => (retryArrived = resolve));
    let attempts = 0;
    receiver.respondWith((r) => {
      if (r.path !== removed) return { status: 200 };
      if (++attempts !== 2) return { status: 503 };
      retryArrived();
      return { status: 503, delayMs: 1500 }; // answered once the endpoint is gone
    });
    await call("/api/v1/webhooks/test", { method: "POST" });
    await retrying;
    expect((await call("/api/v1/webhooks", { method: "DELETE" })).status).toBe(200);
    expect((await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, replacement) } })).status).toBe(201);
    // The answer comes, then the schedule's 1 s and 2 s would have passed.
    await new Promise((r) => setTimeout(r, paced(6000)));
    expect(attempts).toBe(2);
    expect(receiver.requests.filter((r) => r.path === replacement)).toEqual([]);
  });

  it("counts a receiver slower than 5 seconds as a failure and retries", async () => {
    const tenant = await createTenant({ dataDir: server.dataDir });
    const call = api(tenant.key, server.url);
    const path = `/slow/${tenant.workspaceId}`;
    await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, path) } });
    let n = 0;
    receiver.respondWith((r) => (r.path === path ? (++n === 1 ? { status: 200, delayMs: 6000 } : { status: 200 }) : { status: 200 }));
    await call("/api/v1/webhooks/test", { method: "POST" });
    const log = await until(async () => {
      const d = (await call("/api/v1/webhooks/deliveries")).body.deliveries;
      return d.length >= 2 && d;
    }, "timeout then retry");
    expect(log[1]).toMatchObject({ attempt: 1, outcome: "failed", response: { status: null } });
    expect(log[1].error).toMatch(/No response within 5 seconds/);
    expect(log[1].durationMs).toBeGreaterThanOrEqual(4900);
    expect(log[0]).toMatchObject({ attempt: 2, outcome: "succeeded" });
  });

  it("sends upload events only when subscribed: upload.failed passes a filter that upload.completed does not", async () => {
    const { tenant, received, secret } = await setup(() => 200, ["upload.failed"]);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#0a0" } })
      .png()
      .toBuffer();
    const ok = await postUploads(tenant.key, [filePart("fine.png", "image/png", png)], { baseUrl: server.url });
    const bad = await postUploads(tenant.key, [filePart("sandbox-fail.png", "image/png", png)], { baseUrl: server.url });
    expect(ok.status).toBe(201);
    expect(bad.status).toBe(201);
    const call = api(tenant.key, server.url);
    await until(async () => {
      const list = (await call("/api/v1/uploads")).body.uploads as { status: string }[];
      return list.every((u) => u.status !== "processing") || undefined;
    }, "both uploads to finish");
    const [delivered] = await until(async () => received().length >= 1 && received(), "the upload.failed event");
    await new Promise((r) => setTimeout(r, 1000));
    expect(received()).toHaveLength(1);
    const event = await verifyWebhook({ body: delivered!.body, header: delivered!.headers["service-signature"], secret });
    expect(event.type).toBe("upload.failed");
    expect(event.data).toMatchObject({ upload: { id: bad.body.uploads[0].id, status: "failed", fileName: "sandbox-fail.png", error: expect.any(String) } });
  });
});
