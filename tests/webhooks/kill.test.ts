import { afterAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "@adloom/sdk";
import { admin, api, createTenant } from "../helpers/fixtures";
import type { TestServer } from "../helpers/server";
import { freshStorage, startOwnServer } from "./helpers/own-server";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { until } from "../helpers/wait";
import { paced } from "../../scripts/test-pace.mjs";

const servers: TestServer[] = [];
let receiver: Receiver | undefined;
afterAll(async () => {
  for (const s of servers) await s.stop();
  await receiver?.close();
});

// More events than the server sends at once (256 in flight), and a receiver slow enough that the kill finds most unsent.
const EVENTS = 600;

/** Every entry of the delivery log, following its cursor. */
async function deliveryLog(key: string, baseUrl: string): Promise<{ eventId: string; attempt: number; outcome: string }[]> {
  const all: { eventId: string; attempt: number; outcome: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: { deliveries: { eventId: string; attempt: number; outcome: string }[]; nextCursor: string | null } = (
      await api(key, baseUrl)(`/api/v1/webhooks/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ""}`)
    ).body;
    all.push(...page.deliveries);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

describe("webhook first attempts under kill -9", () => {
  it("every event stored before the kill reaches the receiver after a restart, each logged once", async () => {
    const storage = await freshStorage("kill");
    const first = await startOwnServer(storage);
    servers.push(first);
    // A slow receiver, so that deliveries are in flight when the server dies.
    receiver = await startReceiver(() => ({ status: 200, delayMs: 1000 }));
    const tenant = await createTenant({ dataDir: first.dataDir });
    const { webhook } = (await api(tenant.key, first.url)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } })).body;

    const { emitted } = await admin<{ emitted: number }>(
      ["webhooks", "load-test", "--workspace", tenant.workspaceId, "--count", String(EVENTS), "--rate", "1000"],
      first.dataDir,
    );
    expect(emitted).toBe(EVENTS);
    await receiver.waitFor(20);
    await first.kill();
    const beforeKill = receiver.requests.length;
    expect(beforeKill).toBeLessThan(EVENTS); // the kill interrupted the deliveries
    // A request the first server had written before it died can still be read by the receiver after kill() returns
    // (its bytes were on their way); everything read before the second server starts came from the first.
    await new Promise((r) => setTimeout(r, 500));
    const fromFirst = receiver.requests.length;

    const second = await startOwnServer(storage);
    servers.push(second);
    // On PostgreSQL the dead process's leases run out first (30 s); the embedded database takes them back at start.
    const ids = () => new Set(receiver!.requests.map((r) => r.headers["service-event-id"]));
    const deadline = Date.now() + paced(90_000);
    while (ids().size < EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(ids().size).toBe(EVENTS);

    // Every body is the signed event; an event the receiver got twice was in flight at the kill (at-least-once).
    const seen = new Set<string>();
    const twice: number[] = [];
    receiver.requests.forEach((r, i) => {
      const id = r.headers["service-event-id"] as string;
      if (seen.has(id)) twice.push(i);
      seen.add(id);
    });
    const sentByFirst = new Set(receiver.requests.slice(0, fromFirst).map((r) => r.headers["service-event-id"]));
    expect(twice.every((i) => sentByFirst.has(receiver!.requests[i]!.headers["service-event-id"]) && i >= fromFirst)).toBe(true);
    for (const r of receiver.requests.slice(0, 5)) {
      expect((await verifyWebhook({ body: r.body, header: r.headers["service-signature"] as string, secret: webhook.secret })).id).toBe(
        r.headers["service-event-id"],
      );
    }
    // The log holds one successful first attempt per event, and nothing else (the receiver answers
    // a second after it records a request, so the last attempts are logged a little after arriving).
    const log = await until(async () => {
      const entries = await deliveryLog(tenant.key, second.url);
      return entries.length >= EVENTS && entries;
    }, "every attempt in the delivery log");
    expect(log).toHaveLength(EVENTS);
    expect(new Set(log.map((d) => d.eventId)).size).toBe(EVENTS);
    expect(log.every((d) => d.attempt === 1 && d.outcome === "succeeded")).toBe(true);
  }, 240_000);
});
