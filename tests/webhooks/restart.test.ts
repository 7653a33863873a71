import { afterAll, describe, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import type { TestServer } from "../helpers/server";
import { verifyWebhook } from "@adloom/sdk";
import { freshStorage, startOwnServer } from "./helpers/own-server";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { until } from "../helpers/wait";

const servers: TestServer[] = [];
let receiver: Receiver | undefined;
afterAll(async () => {
  for (const s of servers) await s.stop();
  await receiver?.close();
});

describe("webhook retries across a restart", () => {
  it("a retry that was sleeping when the server died is delivered after a restart on the same data", async () => {
    const storage = await freshStorage("restart");
    const env = { WEBHOOK_RETRY_SCHEDULE: "6s" };
    const first = await startOwnServer(storage, env);
    servers.push(first);
    let failing = true;
    receiver = await startReceiver(() => ({ status: failing ? 500 : 200 }));

    const tenant = await createTenant({ dataDir: first.dataDir });
    const { webhook } = (await api(tenant.key, first.url)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } })).body;
    const { event } = (await api(tenant.key, first.url)("/api/v1/webhooks/test", { method: "POST" })).body;
    // Attempt 1 and the immediate retry fail; the next attempt sleeps for 6 s.
    await receiver.waitFor(2);
    const sleeping = await until(async () => {
      const d = (await api(tenant.key, first.url)("/api/v1/webhooks/deliveries")).body.deliveries;
      return d.length >= 2 && d[0];
    }, "the second attempt to be logged");
    expect(sleeping.nextRetryAt).not.toBeNull();
    await first.kill();
    failing = false;

    const second = await startOwnServer(storage, env);
    servers.push(second);
    const [, , third] = await receiver.waitFor(3, { timeoutMs: 60_000 });
    expect((await verifyWebhook({ body: third!.body, header: third!.headers["service-signature"], secret: webhook.secret })).id).toBe(event.id);
    const log = await until(async () => {
      const d = (await api(tenant.key, second.url)("/api/v1/webhooks/deliveries")).body.deliveries;
      return d.length >= 3 && d;
    }, "the third attempt in the log");
    expect(log[0]).toMatchObject({ attempt: 3, trigger: "retry", outcome: "succeeded", eventId: event.id });
    expect(receiver.requests).toHaveLength(3);
  }, 180_000);
});
