import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyWebhook } from "@adloom/sdk";
import { api, createTenant } from "../helpers/fixtures";
import { until } from "../helpers/wait";
import { startReceiver, type Receiver } from "./helpers/receiver";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const headersOf = (h: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => typeof e[1] === "string"));

it("signs every delivery for the standardwebhooks library too (webhook-id = event id, also on redelivery), with the same key", async () => {
  const tenant = await createTenant();
  const call = api(tenant.key);
  const path = `/std/${tenant.workspaceId}`;
  const { webhook } = (await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, path) } })).body;
  expect(webhook.standardWebhooksSecret).toBe(`whsec_${Buffer.from(webhook.secret).toString("base64")}`);
  // Only the Standard Webhooks secret carries that scheme's whsec_ prefix; it decodes to the key the deliveries are signed with.
  expect(webhook.secret).toMatch(/^adlsig_/);
  expect(webhook.secret.startsWith("whsec_")).toBe(false);

  const fired = (await call("/api/v1/webhooks/test", { method: "POST" })).body.event;
  const received = () => receiver.requests.filter((r) => r.path === path);
  const [first] = await until(async () => received().length >= 1 && received(), "the test delivery");
  const headers = headersOf(first!.headers);
  expect(headers["webhook-id"]).toBe(fired.id);
  expect(headers["webhook-timestamp"]).toBe(/t=(\d+)/.exec(headers["service-signature"]!)![1]);

  // The standardwebhooks package verifies the delivery as it arrived, with the secret in its form.
  const verified = new Webhook(webhook.standardWebhooksSecret).verify(first!.body, headers) as { id: string; type: string };
  expect(verified).toMatchObject({ id: fired.id, type: "test" });
  // ...and refuses a changed body or another key.
  expect(() => new Webhook(webhook.standardWebhooksSecret).verify(first!.body.replace('"test"', '"tset"'), headers)).toThrow(WebhookVerificationError);
  expect(() => new Webhook(`whsec_${Buffer.from("whsec_other").toString("base64")}`).verify(first!.body, headers)).toThrow(WebhookVerificationError);
  // The spec's service-signature still verifies, with the client library's (Web Crypto) verifier.
  expect(await verifyWebhook({ body: first!.body, header: headers["service-signature"], secret: webhook.secret })).toMatchObject({ id: fired.id });

  // A redelivery keeps the webhook-id (receivers deduplicate on it) and is signed afresh.
  const deliveries = (await call("/api/v1/webhooks/deliveries")).body.deliveries;
  expect(deliveries[0].request.headers["webhook-id"]).toBe(fired.id);
  expect((await call(`/api/v1/webhooks/deliveries/${deliveries[0].id}`, { method: "POST" })).status).toBe(200);
  const [, again] = await until(async () => received().length >= 2 && received(), "the redelivery");
  expect(again!.headers["webhook-id"]).toBe(fired.id);
  expect(new Webhook(webhook.standardWebhooksSecret).verify(again!.body, headersOf(again!.headers))).toMatchObject({ id: fired.id });
});
