/** A lead from an ad made in Adloom names that ad everywhere it is read: list_leads, the CSV and lead.received. */
import { afterAll, describe, expect, inject, it } from "vitest";
import { adCopy, adCreatives, campaignWithAdSet } from "../ads/helpers";
import { api, createTenant } from "../helpers/fixtures";
import { toolResult } from "../tools/helpers";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";
import { allLeads, leadForms, pullLeads, seedLeads } from "./helpers";

let receiver: Receiver | undefined;
afterAll(async () => {
  await receiver?.close();
});

describe("the ad of a lead", () => {
  it("is the workspace's ad when Adloom made it: in list_leads, the CSV export and lead.received", async () => {
    const t = await createTenant();
    receiver = await startReceiver();
    expect((await api(t.key)("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } })).status).toBeLessThan(300);

    const [form] = await leadForms(t);
    const [{ creativeId }] = await adCreatives(t.key);
    const copyVariantId = await adCopy(t.key, creativeId!);
    const { adSet } = await campaignWithAdSet(t.key);
    const { ad } = await toolResult(t.key, "create_ad", {
      adSetId: adSet.id,
      name: "Quote form ad", // no comma: the CSV row below is split naively
      creativeId,
      copyVariantId,
      callToAction: "sign_up",
      landingUrl: "https://example.com/quote",
      leadFormId: form.externalId,
    });
    expect(ad).toMatchObject({ leadFormId: form.externalId, externalId: expect.any(String) });

    await seedLeads(t.workspaceId, 2, { form: form.externalId });
    expect((await pullLeads(t.workspaceId)).stored).toBe(2);

    const leads = await allLeads(t.key, { formId: form.id });
    expect(leads).toHaveLength(2);
    for (const lead of leads) expect(lead).toMatchObject({ ad: { adId: ad.id, name: ad.name }, adExternalId: ad.externalId });

    const csv = (
      await (await fetch(`${inject("baseUrl")}/api/v1/leads/export.csv?formId=${form.id}`, { headers: { Authorization: `Bearer ${t.key}` } })).text()
    ).slice(1);
    const rows = csv
      .trim()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(","));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.slice(4, 7)).toEqual([ad.id, ad.name, ad.externalId]);

    const events = (await receiver.waitFor(2, { timeoutMs: 60_000, filter: (r) => JSON.parse(r.body).type === "lead.received" })).map((r) =>
      JSON.parse(r.body),
    );
    expect(events.map((e) => e.data.lead.leadId).sort()).toEqual(leads.map((l) => l.id).sort());
    for (const e of events)
      expect(e.data).toMatchObject({ form: { formId: form.id, name: form.name }, ad: { adId: ad.id, name: ad.name }, adExternalId: ad.externalId });
  }, 180_000);
});
