/**
 * Lead ads pulled through the real stack: a server with the scheduled poll off, so each poll is the test's
 * (the shared one; one of our own where a test kills it, runs two or turns the schedule on), the sandbox
 * seeded with submissions, `admin leads pull` as the poll, the stored leads read back over REST and
 * `lead.received` counted at a real webhook receiver.
 */
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { currentOwner } from "@adloom/pglite-driver";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import { waitFor } from "../helpers/library";
import { tempDataDir, type TestServer } from "../helpers/server";
import { freshStorage, startOwnServer, type ServerStorage } from "../webhooks/helpers/own-server";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";
import { pullLeads, seedLeads } from "./helpers";
import { itOnce } from "../helpers/run-once";

const servers: TestServer[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
  for (const r of receivers) await r.close();
});

async function own(storage: ServerStorage, env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startOwnServer(storage, { LEADS_POLL: "0", ...env });
  servers.push(server);
  return server;
}

async function result(key: string, name: string, args: object, baseUrl: string): Promise<any> {
  const res = await fetch(`${baseUrl}/api/v1/tools/${name}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.result;
}

async function storedLeads(key: string, baseUrl: string, formId: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await result(key, "list_leads", { formId, limit: 200, ...(cursor ? { cursor } : {}) }, baseUrl);
    out.push(...page.leads);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** A receiver subscribed to the tenant's events; answers the lead.received envelopes it got. */
async function leadReceiver(t: Tenant, baseUrl: string): Promise<{ receiver: Receiver; leadEvents: () => any[] }> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const put = await api(t.key, baseUrl)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } });
  expect(put.status).toBeLessThan(300);
  const leadEvents = () => receiver.requests.map((r) => JSON.parse(r.body)).filter((e) => e.type === "lead.received");
  return { receiver, leadEvents };
}

/** Each lead's distinct event ids: exactly one per lead when nothing was emitted twice (redeliveries keep the id). */
function eventIdsPerLead(events: any[]): Map<string, Set<string>> {
  const byLead = new Map<string, Set<string>>();
  for (const e of events) byLead.set(e.data.lead.leadId, (byLead.get(e.data.lead.leadId) ?? new Set()).add(e.id));
  return byLead;
}

describe("pulling lead-ad submissions", () => {
  itOnce(
    "a poll capped at N picks the rest up at the next poll, across equal timestamps, with one lead.received per lead",
    async () => {
      // The shared server: its scheduled poll is off too (tests/global-setup.ts), and nothing here restarts it.
      const server = { url: inject("baseUrl") };
      const storage = { dataDir: inject("dataDir") };
      const t = await createTenant({ dataDir: storage.dataDir });
      const { leadEvents } = await leadReceiver(t, server.url);
      const [newsletter, quote] = (await result(t.key, "list_lead_forms", {}, server.url)).forms;

      // 25 submissions at one instant: pages of 10 end inside the run of equal timestamps.
      await seedLeads(t.workspaceId, 25, { form: newsletter.externalId, sameTime: true, dataDir: storage.dataDir });
      await seedLeads(t.workspaceId, 7, { form: quote.externalId, dataDir: storage.dataDir });

      const first = await pullLeads(t.workspaceId, { limit: 10, dataDir: storage.dataDir });
      expect(first.forms.map((f: any) => [f.formId, f.stored, f.capped])).toEqual([
        [newsletter.id, 10, true],
        [quote.id, 7, false],
      ]);
      expect((await storedLeads(t.key, server.url, newsletter.id)).length).toBe(10);
      const second = await pullLeads(t.workspaceId, { limit: 10, dataDir: storage.dataDir });
      expect(second.forms.map((f: any) => f.stored)).toEqual([10, 0]);
      const third = await pullLeads(t.workspaceId, { limit: 10, dataDir: storage.dataDir });
      expect(third.forms.map((f: any) => [f.stored, f.capped])).toEqual([
        [5, false],
        [0, false],
      ]);
      expect((await pullLeads(t.workspaceId, { dataDir: storage.dataDir })).stored).toBe(0);

      const leads = await storedLeads(t.key, server.url, newsletter.id);
      expect(leads).toHaveLength(25);
      expect(new Set(leads.map((l) => l.externalId)).size).toBe(25);
      expect(new Set(leads.map((l) => l.submittedAt)).size).toBe(1);
      expect(await storedLeads(t.key, server.url, quote.id)).toHaveLength(7);

      // More arrive later: the next poll takes only those.
      await seedLeads(t.workspaceId, 3, { form: newsletter.externalId, sameTime: true, dataDir: storage.dataDir });
      expect((await pullLeads(t.workspaceId, { limit: 10, dataDir: storage.dataDir })).stored).toBe(3);
      const all = [...(await storedLeads(t.key, server.url, newsletter.id)), ...(await storedLeads(t.key, server.url, quote.id))];
      expect(all).toHaveLength(35);

      // One webhook per lead, carrying the form, the ad and the submitted fields.
      await waitFor("every lead.received delivered", async () => leadEvents().length >= 35 || undefined, 60_000);
      await new Promise((r) => setTimeout(r, 1000)); // nothing more arrives
      const events = leadEvents();
      expect(events).toHaveLength(35);
      const perLead = eventIdsPerLead(events);
      expect([...perLead.keys()].sort()).toEqual(all.map((l) => l.id).sort());
      const byId = new Map(all.map((l) => [l.id, l]));
      for (const e of events) {
        const lead = byId.get(e.data.lead.leadId)!;
        expect(e.data).toEqual({
          lead: { leadId: lead.id, submittedAt: lead.submittedAt },
          form: { formId: lead.form.formId, name: lead.form.name },
          ad: null,
          adExternalId: lead.adExternalId,
          fields: lead.fields,
        });
      }
      expect(events.find((e) => e.data.form.formId === quote.id).data.fields.map((f: any) => f.name)).toEqual(["full_name", "email", "phone_number"]);
    },
    240_000,
  );

  it("a server killed in the middle of a poll and restarted stores every submission once, with one event each", async () => {
    const storage = await freshStorage("leads-kill");
    // One sandbox call per second and no burst: the poll's pages are a second apart (the four of a 1,000-lead
    // poll take 3 s or more), so the kill lands between two of them even on a busy machine.
    const env = { SANDBOX_ADS_CALLS_PER_SECOND: "1", SANDBOX_ADS_BURST_SECONDS: "1" };
    const first = await own(storage, env);
    const t = await createTenant({ dataDir: storage.dataDir });
    const { leadEvents } = await leadReceiver(t, first.url);
    const [form] = (await result(t.key, "list_lead_forms", {}, first.url)).forms;
    const seeded = 1_600;
    await seedLeads(t.workspaceId, seeded, { form: form.externalId, dataDir: storage.dataDir });

    let finished: string | null = null; // how the poll ended, when it did
    const poll = pullLeads(t.workspaceId, { dataDir: storage.dataDir }).then(
      (answer) => void (finished = `answered ${JSON.stringify(answer).slice(0, 500)}`),
      (err: Error) => void (finished = `failed: ${err.message}`),
    );
    // Read through list_leads (no platform call, so the poll keeps the sandbox's whole call budget).
    await waitFor(
      "the poll to be part-way",
      async () => {
        const { leads } = await result(t.key, "list_leads", { formId: form.id, limit: 10 }, first.url);
        if (finished) throw new Error(`the poll finished before the kill (${finished})`);
        return leads.length > 0 || undefined;
      },
      60_000,
      50,
    );
    await first.kill();
    await poll;
    if (!storage.databaseUrl) {
      await waitFor(
        "the killed server's database lock to be released",
        async () => currentOwner(path.join(storage.dataDir, "db")) === null || undefined,
        15_000,
      );
    }

    // The rest needs no slow platform: the default rate limit finishes the pulls quickly.
    const second = await own(storage);
    const stored = (await storedLeads(t.key, second.url, form.id)).length;
    expect(stored).toBeGreaterThan(0);
    // Mid-poll: some pages stored, not all (on a busy machine the kill may land a page or two later than usual).
    expect(stored).toBeLessThan(seeded);
    for (let i = 0; i < 10; i++) {
      if ((await pullLeads(t.workspaceId, { dataDir: storage.dataDir })).stored === 0) break;
    }
    const leads = await storedLeads(t.key, second.url, form.id);
    expect(leads).toHaveLength(seeded);
    expect(new Set(leads.map((l) => l.externalId)).size).toBe(seeded);

    // Deliveries are at least once (a delivery in flight at the kill may repeat, with its event id);
    // what must hold is one event per lead.
    await waitFor("lead.received for every lead", async () => eventIdsPerLead(leadEvents()).size >= seeded || undefined, 120_000);
    const perLead = eventIdsPerLead(leadEvents());
    expect(perLead.size).toBe(seeded);
    expect([...perLead.values()].every((ids) => ids.size === 1)).toBe(true);
    await second.stop();
  }, 300_000);

  it.skipIf(inject("testDb") !== "postgres")(
    "two instances on one PostgreSQL database polling at once store every submission once, with one event each",
    async () => {
      const storage = await freshStorage("leads-two");
      const a = await own(storage);
      const b = await own({ dataDir: tempDataDir("leads-two-b"), databaseUrl: storage.databaseUrl });
      const t = await createTenant({ dataDir: storage.dataDir });
      const { leadEvents } = await leadReceiver(t, a.url);
      const [form] = (await result(t.key, "list_lead_forms", {}, a.url)).forms;
      const seeded = 2_500;
      await seedLeads(t.workspaceId, seeded, { form: form.externalId, sameTime: true, dataDir: storage.dataDir });
      // Both instances poll the same form at the same moments until neither finds anything new.
      for (let round = 0; round < 10; round++) {
        const [fromA, fromB] = await Promise.all([pullLeads(t.workspaceId, { dataDir: storage.dataDir }), pullLeads(t.workspaceId, { dataDir: b.dataDir })]);
        if (fromA.stored + fromB.stored === 0) break;
      }
      const leads = await storedLeads(t.key, b.url, form.id);
      expect(leads).toHaveLength(seeded);
      expect(new Set(leads.map((l) => l.externalId)).size).toBe(seeded);
      await waitFor("lead.received for every lead", async () => eventIdsPerLead(leadEvents()).size >= seeded || undefined, 120_000);
      expect([...eventIdsPerLead(leadEvents()).values()].every((ids) => ids.size === 1)).toBe(true);
    },
    300_000,
  );

  itOnce(
    "the every-minute job pulls new submissions by itself",
    async () => {
      const storage = await freshStorage("leads-cron");
      const server = await own(storage, { LEADS_POLL: "1" });
      const t = await createTenant({ dataDir: storage.dataDir });
      const [, quote] = (await result(t.key, "list_lead_forms", {}, server.url)).forms;
      await seedLeads(t.workspaceId, 4, { form: quote.externalId, dataDir: storage.dataDir });
      const leads = await waitFor(
        "the scheduled poll to store the submissions",
        async () => {
          const found = await storedLeads(t.key, server.url, quote.id);
          return found.length >= 4 ? found : undefined;
        },
        150_000,
        1000,
      );
      expect(leads).toHaveLength(4);
      const [form] = (await result(t.key, "list_lead_forms", {}, server.url)).forms.filter((f: any) => f.id === quote.id);
      expect(form).toMatchObject({ leadCount: 4, lastError: null, lastPolledAt: expect.any(String) });
      await server.stop();
    },
    240_000,
  );
});
