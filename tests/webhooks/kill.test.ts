import { afterAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "@adloom/sdk";
import { admin, api, createTenant } from "../helpers/fixtures";
import type { TestServer } from "../helpers/server";
import { freshStorage, startOwnServer } from "./helpers/own-server";
import { startReceiver, type Receiver } from "./helpers/receiver";
import { until } from "../helpers/wait";

const servers: TestServer[] = [];
let receiver: Receiver | undefined;
afterAll(async () => {
  for (const s of servers) await s.stop();
  await receiver?.close();
});

// More events than the server sends at once (256 in flight), and a receiver slow enough that the kill finds most unsent.
const EVENTS = 600;

interface LogEntry {
  eventId: string;
  attempt: number;
  trigger: string;
  outcome: string;
}

/** Every entry of the delivery log, following its cursor. */
async function deliveryLog(key: string, baseUrl: string): Promise<LogEntry[]> {
  const all: LogEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: { deliveries: LogEntry[]; nextCursor: string | null } = (
      await api(key, baseUrl)(`/api/v1/webhooks/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ""}`)
    ).body;
    all.push(...page.deliveries);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

describe("webhook first attempts under kill -9", () => {
  it("every event stored before the kill reaches the receiver after a restart, its first attempt logged once", async () => {
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

    // Three answers of the second server come too late (after the 5 s delivery timeout): those first
    // attempts fail and are retried, so the log must tell a retry from a first attempt sent twice.
    const late = new Set([fromFirst + 20, fromFirst + 21, fromFirst + 22]);
    receiver.respondWith((_, index) => ({ status: 200, delayMs: late.has(index) ? 7000 : 1000 }));
    const second = await startOwnServer(storage);
    servers.push(second);

    // On PostgreSQL the dead process's leases run out first (30 s); the embedded database takes them back at start.
    // Done when every event has a successful attempt in the log.
    const log = await until(
      async () => {
        const entries = await deliveryLog(tenant.key, second.url);
        return new Set(entries.filter((d) => d.outcome === "succeeded").map((d) => d.eventId)).size === EVENTS && entries;
      },
      "a successful attempt of every event in the delivery log",
      120_000,
    );
    const byEvent = new Map<string, LogEntry[]>();
    for (const d of log.toReversed()) byEvent.set(d.eventId, [...(byEvent.get(d.eventId) ?? []), d]); // oldest first
    const failed = log.filter((d) => d.outcome === "failed");
    expect(failed.length).toBeGreaterThanOrEqual(late.size);
    for (const attempts of byEvent.values()) {
      // One first attempt per event, never two; a later attempt is a retry after a failure.
      expect(attempts.map((d) => d.attempt)).toEqual(attempts.map((_, i) => i + 1));
      expect(attempts.slice(1).every((d) => d.trigger === "retry")).toBe(true);
      expect(attempts.map((d) => d.outcome)).toEqual([...attempts.slice(1).map(() => "failed"), "succeeded"]);
    }

    // Every body is the signed event. An event the receiver got twice was in flight at the kill
    // (at-least-once) or its attempt failed (a late answer) and was retried.
    const retried = new Set(failed.map((d) => d.eventId));
    const sentByFirst = new Set(receiver.requests.slice(0, fromFirst).map((r) => r.headers["service-event-id"] as string));
    const seen = new Set<string>();
    receiver.requests.forEach((r, i) => {
      const id = r.headers["service-event-id"] as string;
      if (seen.has(id)) expect(retried.has(id) || (sentByFirst.has(id) && i >= fromFirst), `receipt ${i} of ${id}`).toBe(true);
      seen.add(id);
    });
    expect(seen.size).toBe(EVENTS);
    for (const r of receiver.requests.slice(0, 5)) {
      expect((await verifyWebhook({ body: r.body, header: r.headers["service-signature"] as string, secret: webhook.secret })).id).toBe(
        r.headers["service-event-id"],
      );
    }
  }, 240_000);
});
