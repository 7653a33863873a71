import { expect } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { waitFor, webhookReceiver } from "../helpers/library";
import { callTool, toolResult } from "../tools/helpers";
import { adCopy, adCreatives, advance, campaignWithAdSet, pausedAd } from "./helpers";

/** One REST scenario per ads tool (spread into tests/tools/tool-calls.ts TOOL_CALLS). */
export const AD_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async list_ad_accounts(t) {
    const { accounts } = await toolResult(t.key, "list_ad_accounts", {});
    expect(accounts.map((a: any) => a.platform)).toEqual(["platform_a", "platform_b"]);
    expect(accounts[0]).toMatchObject({
      mode: "sandbox",
      currency: "USD",
      timeZone: "America/New_York",
      status: "active",
      today: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
    });
    expect(accounts[1].timeZone).toBe("UTC");
  },

  async get_ad_account(t) {
    const { account } = await toolResult(t.key, "get_ad_account", { platform: "platform_b" });
    expect(account).toMatchObject({ platform: "platform_b", externalAccountId: expect.stringMatching(/^\d+$/), currency: "USD" });
    expect((await callTool(t.key, "get_ad_account", { platform: "platform_c" })).body.error.message).toMatch(/^Invalid input: platform/);
  },

  async list_audiences(t) {
    const { audiences } = await toolResult(t.key, "list_audiences", { platform: "platform_a" });
    expect(audiences).toHaveLength(3);
    expect(audiences[0]).toMatchObject({ id: expect.stringMatching(/^\d+$/), name: expect.any(String), approximateSize: expect.any(Number) });
  },

  async list_campaigns(t) {
    const { campaign: a } = await toolResult(t.key, "create_campaign", { platform: "platform_a", name: "A one", objective: "sales" });
    const { campaign: b } = await toolResult(t.key, "create_campaign", { platform: "platform_b", name: "B one", objective: "traffic" });
    expect((await toolResult(t.key, "list_campaigns", { platform: "platform_a" })).campaigns.map((c: any) => c.id)).toEqual([a.id]);
    expect((await toolResult(t.key, "list_campaigns", { platform: "platform_b" })).campaigns.map((c: any) => c.id)).toEqual([b.id]);
    const missing = await callTool(t.key, "list_campaigns", {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^Invalid input: platform/);
  },

  async get_campaign(t) {
    const { campaign } = await toolResult(t.key, "create_campaign", { platform: "platform_a", name: "Get me", objective: "leads" });
    expect((await toolResult(t.key, "get_campaign", { id: campaign.id })).campaign).toEqual(campaign);
    const other = await createTenant();
    expect((await callTool(other.key, "get_campaign", { id: campaign.id })).status).toBe(404);
  },

  async create_campaign(t) {
    const first = await toolResult(t.key, "create_campaign", { platform: "platform_b", name: "Spring", objective: "sales", clientRef: "spring-1" });
    expect(first).toMatchObject({
      created: true,
      campaign: { platform: "platform_b", name: "Spring", objective: "sales", status: "paused", externalId: expect.stringMatching(/^\d{19}$/) },
    });
    const again = await toolResult(t.key, "create_campaign", { platform: "platform_b", name: "Spring", objective: "sales", clientRef: "spring-1" });
    expect(again).toEqual({ created: false, campaign: first.campaign });
    expect((await toolResult(t.key, "list_campaigns", { platform: "platform_b" })).campaigns).toHaveLength(1);
    const bad = await callTool(t.key, "create_campaign", { platform: "platform_a", name: "x", objective: "fame" });
    expect(bad.body.error.message).toMatch(/^Invalid input: objective/);
  },

  async update_campaign(t) {
    const { campaign } = await toolResult(t.key, "create_campaign", { platform: "platform_a", name: "Old", objective: "sales" });
    expect((await toolResult(t.key, "update_campaign", { id: campaign.id, name: "New" })).campaign.name).toBe("New");
    expect((await toolResult(t.key, "get_campaign", { id: campaign.id })).campaign.name).toBe("New");
  },

  async activate_campaign(t) {
    const { campaign } = await toolResult(t.key, "create_campaign", { platform: "platform_a", name: "Go", objective: "sales" });
    expect((await toolResult(t.key, "activate_campaign", { id: campaign.id })).campaign.status).toBe("active");
    expect((await toolResult(t.key, "list_campaigns", { platform: "platform_a", status: "active" })).campaigns.map((c: any) => c.id)).toEqual([campaign.id]);
  },

  async pause_campaign(t) {
    const { campaign } = await toolResult(t.key, "create_campaign", { platform: "platform_a", name: "Stop", objective: "sales" });
    await toolResult(t.key, "activate_campaign", { id: campaign.id });
    expect((await toolResult(t.key, "pause_campaign", { id: campaign.id })).campaign.status).toBe("paused");
  },

  async delete_campaign(t) {
    const { campaign, adSet } = await campaignWithAdSet(t.key, "platform_a");
    expect(await toolResult(t.key, "delete_campaign", { id: campaign.id })).toEqual({ ok: true });
    expect((await toolResult(t.key, "get_campaign", { id: campaign.id })).campaign.status).toBe("deleted");
    expect((await toolResult(t.key, "get_ad_set", { id: adSet.id })).adSet.status).toBe("deleted");
    expect((await toolResult(t.key, "list_campaigns", { platform: "platform_a" })).campaigns).toEqual([]);
    const changed = await callTool(t.key, "activate_campaign", { id: campaign.id });
    expect(changed.status).toBe(409);
  },

  async list_ad_sets(t) {
    const { campaign, adSet } = await campaignWithAdSet(t.key, "platform_b");
    const { adSets } = await toolResult(t.key, "list_ad_sets", { campaignId: campaign.id });
    expect(adSets).toEqual([adSet]);
    expect(adSet).toMatchObject({ kind: "ad_group", locationIds: ["6252001"], targetCountries: null });
  },

  async get_ad_set(t) {
    const { adSet } = await campaignWithAdSet(t.key, "platform_a");
    expect((await toolResult(t.key, "get_ad_set", { id: adSet.id })).adSet).toMatchObject({
      id: adSet.id,
      kind: "ad_set",
      targetCountries: ["US", "DE"],
      locationIds: null,
    });
    const other = await createTenant();
    expect((await callTool(other.key, "get_ad_set", { id: adSet.id })).status).toBe(404);
  },

  async create_ad_set(t) {
    const { campaign } = await toolResult(t.key, "create_campaign", { platform: "platform_a", name: "Sets", objective: "traffic" });
    const { adSet, created } = await toolResult(t.key, "create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_a",
      name: "EU",
      budget: { type: "daily", amountMinor: 100 },
      targetCountries: ["FR", "IT"],
      ageMin: 21,
    });
    expect(created).toBe(true);
    expect(adSet).toMatchObject({ status: "paused", budget: { type: "daily", amountMinor: 100 }, ageMin: 21, ageMax: 65 });
    const noCountries = await callTool(t.key, "create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_a",
      name: "x",
      budget: { type: "daily", amountMinor: 500 },
    });
    expect(noCountries.body.error.message).toMatch(/^Invalid input: targetCountries: platform_a ad sets need target countries/);

    // Regions and cities by the keys search_locations answers; the ad set shows their names.
    const [bavaria] = (await toolResult(t.key, "search_locations", { platform: "platform_a", query: "bavaria", types: ["region"] })).locations;
    const [munich] = (await toolResult(t.key, "search_locations", { platform: "platform_a", query: "munich", types: ["city"] })).locations;
    const { adSet: local } = await toolResult(t.key, "create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_a",
      name: "Bavaria and Munich",
      budget: { type: "daily", amountMinor: 100 },
      targetRegions: [bavaria.id],
      targetCities: [munich.id],
    });
    expect(local).toMatchObject({
      targetCountries: [],
      targetRegions: [bavaria.id],
      targetCities: [munich.id],
      locationIds: null,
      locationNames: { [bavaria.id]: "Bavaria", [munich.id]: "Munich" },
    });
    expect((await toolResult(t.key, "get_ad_set", { id: local.id })).adSet.locationNames).toEqual(local.locationNames);
    // A key that names no region of the platform is the platform's refusal; a city key given as a region too.
    for (const targetRegions of [["99999999"], [munich.id]]) {
      const unknown = await callTool(t.key, "create_ad_set", {
        campaignId: campaign.id,
        platform: "platform_a",
        name: "Nowhere",
        budget: { type: "daily", amountMinor: 100 },
        targetRegions,
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: "invalid_input", message: expect.stringContaining("is not a region key") });
    }
    const { campaign: b } = await toolResult(t.key, "create_campaign", { platform: "platform_b", name: "Groups", objective: "traffic" });
    const onB = await callTool(t.key, "create_ad_set", {
      campaignId: b.id,
      platform: "platform_b",
      name: "x",
      budget: { type: "daily", amountMinor: 5000 },
      locationIds: ["6252001"],
      targetCities: [munich.id],
    });
    expect(onB.status).toBe(400);
    expect(onB.body.error.message).toMatch(/^Invalid input: targetCities: platform_b ad groups target location ids/);
  },

  async search_locations(t) {
    // The sandbox's built-in places; each platform's ids: Meta's keys on A, TikTok's location ids on B.
    const onA = await toolResult(t.key, "search_locations", { platform: "platform_a", query: "calif" });
    expect(onA.locations).toEqual([{ id: "3847", type: "region", name: "California", countryCode: "US", regionName: null, platform: "platform_a" }]);
    const cities = await toolResult(t.key, "search_locations", { platform: "platform_b", query: "san", types: ["city"], limit: 2 });
    expect(cities.locations).toEqual([
      { id: "5391959", type: "city", name: "San Francisco", countryCode: "US", regionName: "California", platform: "platform_b" },
      { id: "5391811", type: "city", name: "San Diego", countryCode: "US", regionName: "California", platform: "platform_b" },
    ]);
    // Accents and case do not matter; countries come as ISO codes on A.
    expect((await toolResult(t.key, "search_locations", { platform: "platform_a", query: "ILE-DE" })).locations.map((l: any) => l.name)).toEqual([
      "Île-de-France",
    ]);
    expect((await toolResult(t.key, "search_locations", { platform: "platform_a", query: "germ", types: ["country"] })).locations[0].id).toBe("DE");
    expect((await toolResult(t.key, "search_locations", { platform: "platform_b", query: "atlantis" })).locations).toEqual([]);

    // An ad group made with a found id shows its name.
    const [munich] = (await toolResult(t.key, "search_locations", { platform: "platform_b", query: "Munich" })).locations;
    const { campaign } = await toolResult(t.key, "create_campaign", { platform: "platform_b", name: "Munich", objective: "traffic" });
    const { adSet } = await toolResult(t.key, "create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_b",
      name: "Munich",
      budget: { type: "daily", amountMinor: 5000 },
      locationIds: [munich.id, "6252001", "1"],
    });
    expect(adSet.locationIds).toEqual([munich.id, "6252001", "1"]);
    expect(adSet.locationNames[munich.id]).toBe("Munich");
    expect(adSet.locationNames).not.toHaveProperty("1"); // no search answered it

    for (const [args, message] of [
      [{ platform: "platform_a", query: "  " }, /^Invalid input: query/],
      [{ platform: "platform_a", query: "x", types: ["planet"] }, /^Invalid input: types/],
      [{ platform: "platform_a", query: "x", limit: 51 }, /^Invalid input: limit/],
      [{ query: "x" }, /^Invalid input: platform/],
    ] as const) {
      const bad = await callTool(t.key, "search_locations", args);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(message) });
    }
  },

  async update_ad_set(t) {
    const { adSet } = await campaignWithAdSet(t.key, "platform_a");
    const end = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const { adSet: updated } = await toolResult(t.key, "update_ad_set", { id: adSet.id, name: "Renamed", endTime: end });
    expect(updated).toMatchObject({ name: "Renamed", endTime: end });
  },

  async set_ad_set_budget(t) {
    const { adSet } = await campaignWithAdSet(t.key, "platform_b");
    expect((await toolResult(t.key, "set_ad_set_budget", { id: adSet.id, budget: { type: "daily", amountMinor: 9000 } })).adSet.budget).toEqual({
      type: "daily",
      amountMinor: 9000,
    });
    const low = await callTool(t.key, "set_ad_set_budget", { id: adSet.id, budget: { type: "daily", amountMinor: 1999 } });
    expect(low.status).toBe(400);
    expect(low.body.error.message).toMatch(/^Invalid input: budget.amountMinor: platform_b needs a daily budget of at least 2000/);
  },

  async activate_ad_set(t) {
    const { adSet } = await campaignWithAdSet(t.key, "platform_a");
    expect((await toolResult(t.key, "activate_ad_set", { id: adSet.id })).adSet.status).toBe("active");
  },

  async pause_ad_set(t) {
    const { adSet } = await campaignWithAdSet(t.key, "platform_a");
    await toolResult(t.key, "activate_ad_set", { id: adSet.id });
    expect((await toolResult(t.key, "pause_ad_set", { id: adSet.id })).adSet.status).toBe("paused");
  },

  async delete_ad_set(t) {
    const { ad, adSet } = await pausedAd(t.key, "platform_a");
    expect(await toolResult(t.key, "delete_ad_set", { id: adSet.id })).toEqual({ ok: true });
    expect((await toolResult(t.key, "get_ad", { id: ad.id })).ad.status).toBe("deleted");
  },

  async list_ads(t) {
    const { ad, adSet } = await pausedAd(t.key, "platform_a");
    const { ads, nextCursor } = await toolResult(t.key, "list_ads", { adSetId: adSet.id });
    expect(ads.map((a: any) => a.id)).toEqual([ad.id]);
    expect(ads[0].today).toMatchObject({ spendMinor: 0, impressions: 0 });
    expect(nextCursor).toBeNull();
  },

  async get_ad(t) {
    const { ad, creativeId } = await pausedAd(t.key, "platform_b");
    const { ad: got } = await toolResult(t.key, "get_ad", { id: ad.id });
    expect(got).toMatchObject({ id: ad.id, creativeId, platform: "platform_b", status: "paused", callToAction: "shop_now", today: { spendMinor: 0 } });
    const other = await createTenant();
    expect((await callTool(other.key, "get_ad", { id: ad.id })).status).toBe(404);
  },

  async get_ad_insights(t) {
    const { ad } = await pausedAd(t.key, "platform_a");
    await toolResult(t.key, "activate_ads", { adIds: [ad.id] });
    await advance(t.workspaceId, 48);
    const { days, currency } = await toolResult(t.key, "get_ad_insights", { id: ad.id });
    expect(currency).toBe("USD");
    expect(days.length).toBeGreaterThanOrEqual(2);
    expect(days.reduce((s: number, d: any) => s + d.spendMinor, 0)).toBeGreaterThan(0);
    expect(days[0]).toMatchObject({ date: expect.any(String), impressions: expect.any(Number), frequency: expect.any(Number) });
  },

  async create_ad(t) {
    const receiver = await webhookReceiver(t.key);
    try {
      const { ad, adSet, creativeId } = await pausedAd(t.key, "platform_a");
      expect(ad).toMatchObject({ adSetId: adSet.id, creativeId, status: "paused", headline: "Fresh picks", externalId: expect.stringMatching(/^\d+$/) });
      const again = await toolResult(t.key, "create_ad", {
        adSetId: adSet.id,
        creativeId,
        copyVariantId: ad.copyVariantId,
        callToAction: "shop_now",
        landingUrl: "https://example.com/shop",
      });
      expect(again).toMatchObject({ created: false, ad: { id: ad.id } });
      const event = await waitFor("ad.created", async () => receiver.events.find((e) => e.type === "ad.created"), 30_000);
      expect(event.data).toEqual({ ad: { adId: ad.id, name: ad.name, adsetId: adSet.id, creativeId } });
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.events.filter((e) => e.type === "ad.created")).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  },

  async update_ad(t) {
    const { ad } = await pausedAd(t.key, "platform_b");
    expect((await toolResult(t.key, "update_ad", { id: ad.id, primaryText: "Short text", callToAction: "apply_now" })).ad).toMatchObject({
      primaryText: "Short text",
      callToAction: "apply_now",
    });
    const long = await callTool(t.key, "update_ad", { id: ad.id, primaryText: "x".repeat(101) });
    expect(long.body.error.message).toMatch(/^Invalid input: primaryText: 101 characters is over platform_b's 100/);
  },

  async activate_ads(t) {
    const { ad } = await pausedAd(t.key, "platform_a");
    const preview = await toolResult(t.key, "activate_ads", { adIds: [ad.id], dryRun: true });
    expect(preview).toMatchObject({ dryRun: true, dailySpendSwitchedOn: [{ currency: "USD", amountMinor: 5000 }] });
    expect((await toolResult(t.key, "get_ad", { id: ad.id })).ad.status).toBe("paused");
    const done = await toolResult(t.key, "activate_ads", { adIds: [ad.id] });
    expect(done.ads[0].status).toBe("active");
    expect((await toolResult(t.key, "get_campaign", { id: ad.campaignId })).campaign.status).toBe("active");
    const summary = await advance(t.workspaceId, 24);
    expect(summary.spendMinor).toBeGreaterThan(0);
    expect((await toolResult(t.key, "get_ad", { id: ad.id })).ad.today.spendMinor).toBeGreaterThanOrEqual(0);
  },

  async pause_ads(t) {
    const { ad } = await pausedAd(t.key, "platform_a");
    await toolResult(t.key, "activate_ads", { adIds: [ad.id] });
    expect((await toolResult(t.key, "pause_ads", { adIds: [ad.id] })).ads[0].status).toBe("paused");
    const summary = await advance(t.workspaceId, 24);
    expect(summary.adsDelivered).toBe(0);
  },

  async delete_ads(t) {
    const { ad } = await pausedAd(t.key, "platform_a");
    expect(await toolResult(t.key, "delete_ads", { adIds: [ad.id] })).toEqual({ deleted: 1, failed: [] });
    expect((await toolResult(t.key, "list_ads", {})).ads).toEqual([]);
    expect((await callTool(t.key, "delete_ads", { adIds: ["ad_missing"] })).status).toBe(404);
  },

  async build_ads_from_library(t) {
    const creatives = await adCreatives(t.key, { count: 2 });
    const copies = [await adCopy(t.key, creatives[0]!.creativeId, "One"), await adCopy(t.key, creatives[1]!.creativeId, "Two")];
    const { adSet } = await campaignWithAdSet(t.key, "platform_a");
    const args = {
      adSetId: adSet.id,
      creativeIds: creatives.map((c) => c.creativeId),
      copyVariantIds: copies,
      pairing: "all",
      callToAction: "learn_more",
      landingUrl: "https://example.com",
    };
    const preview = await toolResult(t.key, "build_ads_from_library", { ...args, dryRun: true });
    expect(preview).toMatchObject({ created: 0, existing: 0, failed: 0 });
    expect(preview.ads.map((r: any) => r.problems)).toEqual([[], [], [], []]);
    const built = await toolResult(t.key, "build_ads_from_library", args);
    expect(built).toMatchObject({ created: 4, existing: 0, failed: 0 });
    const again = await toolResult(t.key, "build_ads_from_library", args);
    expect(again).toMatchObject({ created: 0, existing: 4 });
    expect((await toolResult(t.key, "list_ads", { adSetId: adSet.id })).ads).toHaveLength(4);
  },

  async send_creative_to_ad_account(t) {
    const [{ creativeId }] = await adCreatives(t.key, { platform: "platform_a" });
    const { adAccounts } = await toolResult(t.key, "list_connected_ad_accounts", {});
    const accountB = adAccounts.find((a: any) => a.platform === "platform_b" && a.isDefault);
    const { push, sent } = await toolResult(t.key, "send_creative_to_ad_account", { creativeId, adAccountId: accountB.id });
    expect(sent).toBe(true);
    expect(push).toMatchObject({ creativeId, adAccountId: accountB.id, platform: "platform_b" });
    await waitFor(
      "the push to be ready",
      async () => {
        const { pushes } = await toolResult(t.key, "list_creative_pushes", { creativeId });
        return pushes.find((p: any) => p.id === push.id && p.state === "ready");
      },
      60_000,
    );
  },

  async list_creative_pushes(t) {
    const [{ creativeId }] = await adCreatives(t.key, { platform: "platform_b" });
    const { pushes } = await toolResult(t.key, "list_creative_pushes", { creativeId });
    expect(pushes).toEqual([
      expect.objectContaining({ creativeId, platform: "platform_b", state: "ready", externalId: expect.stringMatching(/^\d+$/), chunksTotal: 0 }),
    ]);
  },

  async save_ad_draft(t) {
    const [{ creativeId }] = await adCreatives(t.key);
    const { draft, created } = await toolResult(t.key, "save_ad_draft", {
      name: "Later",
      creativeId,
      callToAction: "sign_up",
      landingUrl: "https://example.com/join",
    });
    expect(created).toBe(true);
    expect(draft).toMatchObject({ name: "Later", creativeId, adSetId: null, adId: null });
    const { draft: renamed } = await toolResult(t.key, "save_ad_draft", {
      id: draft.id,
      name: "Sooner",
      creativeId,
      callToAction: "sign_up",
      landingUrl: "https://example.com/join",
    });
    expect(renamed).toMatchObject({ id: draft.id, name: "Sooner" });
  },

  async list_ad_drafts(t) {
    const [{ creativeId }] = await adCreatives(t.key);
    const { draft } = await toolResult(t.key, "save_ad_draft", { name: "Listed", creativeId, callToAction: "learn_more", landingUrl: "https://example.com" });
    expect((await toolResult(t.key, "list_ad_drafts", { launched: false })).drafts.map((d: any) => d.id)).toEqual([draft.id]);
    expect((await toolResult(t.key, "list_ad_drafts", { launched: true })).drafts).toEqual([]);
  },

  async launch_ad_draft(t) {
    const [{ creativeId }] = await adCreatives(t.key);
    const copyVariantId = await adCopy(t.key, creativeId);
    const { adSet } = await campaignWithAdSet(t.key, "platform_a");
    const { draft } = await toolResult(t.key, "save_ad_draft", {
      name: "Draft ad",
      creativeId,
      copyVariantId,
      callToAction: "learn_more",
      landingUrl: "https://example.com",
    });
    const noSet = await callTool(t.key, "launch_ad_draft", { id: draft.id });
    expect(noSet.body.error.message).toMatch(/^Invalid input: adSetId/);
    const launched = await toolResult(t.key, "launch_ad_draft", { id: draft.id, adSetId: adSet.id });
    expect(launched).toMatchObject({ created: true, ad: { name: "Draft ad", draftId: draft.id, status: "paused" }, draft: { adId: expect.any(String) } });
    expect((await toolResult(t.key, "launch_ad_draft", { id: draft.id })).ad.id).toBe(launched.ad.id);
  },
};
