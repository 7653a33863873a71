import { describe, expect, it } from "vitest";
import { admin, createMemberKey, createTenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";
import { adCopy, adCreatives, campaignWithAdSet, pausedAd } from "./helpers";

describe("platform rules over REST", () => {
  it("each platform's required targeting, with a clear Invalid input: message", async () => {
    const t = await createTenant();
    const { campaign: a } = await toolResult(t.key, "create_campaign", { platform: "platform_a", name: "A", objective: "sales" });
    const { campaign: b } = await toolResult(t.key, "create_campaign", { platform: "platform_b", name: "B", objective: "sales" });
    const budget = { type: "daily", amountMinor: 5000 };
    const noCountries = await callTool(t.key, "create_ad_set", { campaignId: a.id, platform: "platform_a", name: "x", budget, locationIds: ["1"] });
    expect(noCountries.status).toBe(400);
    expect(noCountries.body.error.code).toBe("invalid_input");
    expect(noCountries.body.error.message).toMatch(/^Invalid input: targetCountries: platform_a ad sets need target countries/);
    const badCountry = await callTool(t.key, "create_ad_set", { campaignId: a.id, platform: "platform_a", name: "x", budget, targetCountries: ["usa"] });
    expect(badCountry.body.error.message).toMatch(/^Invalid input: targetCountries\.0: must be an ISO 3166 alpha-2 country code/);
    const noLocations = await callTool(t.key, "create_ad_set", { campaignId: b.id, platform: "platform_b", name: "x", budget, targetCountries: ["US"] });
    expect(noLocations.body.error.message).toMatch(/^Invalid input: locationIds: platform_b ad groups need location ids/);
    const wrongPlatform = await callTool(t.key, "create_ad_set", { campaignId: b.id, platform: "platform_a", name: "x", budget, targetCountries: ["US"] });
    expect(wrongPlatform.body.error.message).toBe("Invalid input: platform: the campaign is on platform_b, not platform_a");
    // Nothing was half-written.
    expect((await toolResult(t.key, "list_ad_sets", {})).adSets).toEqual([]);
  });

  it("budgets below each platform's minimum, and lifetime budgets without an end", async () => {
    const t = await createTenant();
    const { campaign: a } = await toolResult(t.key, "create_campaign", { platform: "platform_a", name: "A", objective: "sales" });
    const { campaign: b } = await toolResult(t.key, "create_campaign", { platform: "platform_b", name: "B", objective: "sales" });
    const lowA = await callTool(t.key, "create_ad_set", {
      campaignId: a.id,
      platform: "platform_a",
      name: "x",
      budget: { type: "daily", amountMinor: 99 },
      targetCountries: ["US"],
    });
    expect(lowA.body.error.message).toBe("Invalid input: budget.amountMinor: platform_a needs a daily budget of at least 100 (1.00 USD); got 99");
    const okB = await callTool(t.key, "create_ad_set", {
      campaignId: b.id,
      platform: "platform_b",
      name: "x",
      budget: { type: "daily", amountMinor: 2000 },
      locationIds: ["1"],
    });
    expect(okB.status).toBe(200);
    const lowB = await callTool(t.key, "create_ad_set", {
      campaignId: b.id,
      platform: "platform_b",
      name: "y",
      budget: { type: "daily", amountMinor: 1999 },
      locationIds: ["1"],
    });
    expect(lowB.body.error.message).toMatch(/^Invalid input: budget.amountMinor: platform_b needs a daily budget of at least 2000/);
    const noEnd = await callTool(t.key, "create_ad_set", {
      campaignId: a.id,
      platform: "platform_a",
      name: "z",
      budget: { type: "lifetime", amountMinor: 10_000 },
      targetCountries: ["US"],
    });
    expect(noEnd.body.error.message).toBe("Invalid input: endTime: a lifetime budget needs an end time");
    const start = new Date(Date.now() + 3_600_000);
    const end = new Date(start.getTime() + 10 * 86_400_000);
    const lowLifetime = await callTool(t.key, "create_ad_set", {
      campaignId: b.id,
      platform: "platform_b",
      name: "l",
      budget: { type: "lifetime", amountMinor: 19_999 },
      locationIds: ["1"],
      startTime: start.toISOString(),
      endTime: end.toISOString(),
    });
    expect(lowLifetime.body.error.message).toMatch(/at least 20000 \(20\.00 USD per day over 10 days\)/);
  });

  it("checks media and text against the platform before sending anything", async () => {
    const t = await createTenant();
    const [small] = await adCreatives(t.key, { platform: "platform_b", width: 120, height: 120 });
    const [onA] = await adCreatives(t.key, { platform: "platform_a" });
    const { adSet } = await campaignWithAdSet(t.key, "platform_b");
    const longCopy = await adCopy(t.key, small!.creativeId, "A headline much longer than forty characters here", "x".repeat(150));
    const refused = await callTool(t.key, "create_ad", {
      adSetId: adSet.id,
      creativeId: small!.creativeId,
      copyVariantId: longCopy,
      callToAction: "book_now",
      landingUrl: "https://example.com",
    });
    expect(refused.status).toBe(400);
    const message: string = refused.body.error.message;
    expect(message).toMatch(/^Invalid input: /);
    expect(message).toContain("120x120 px is below platform_b's minimum of 300x300 px");
    expect(message).toContain("headline: 49 characters is over platform_b's 40");
    expect(message).toContain("primaryText: 150 characters is over platform_b's 100");
    expect(message).toContain('callToAction: platform_b does not offer "book_now"');
    const elsewhere = await callTool(t.key, "create_ad", {
      adSetId: adSet.id,
      creativeId: onA!.creativeId,
      callToAction: "learn_more",
      landingUrl: "https://example.com",
    });
    // Being uploaded to platform_a is no problem (the build sends it to platform_b: tests/ads/one-creative-every-account.test.ts);
    // platform_b's required ad text is.
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).not.toContain("uploaded");
    expect(elsewhere.body.error.message).toMatch(/primaryText/);
    expect((await toolResult(t.key, "list_ads", {})).ads).toEqual([]);
  }, 180_000);

  it("takes an image at Meta's 1.91:1 as its guides size it (1200x628 px) and refuses a wider one, naming both ratios", async () => {
    const t = await createTenant();
    const [linkAd] = await adCreatives(t.key, { platform: "platform_a", width: 1200, height: 628 });
    const [banner] = await adCreatives(t.key, { platform: "platform_a", width: 1300, height: 628 });
    const { adSet } = await campaignWithAdSet(t.key, "platform_a");
    const ad = (creativeId: string, copyVariantId: string) =>
      callTool(t.key, "create_ad", { adSetId: adSet.id, creativeId, copyVariantId, callToAction: "shop_now", landingUrl: "https://example.com" });
    const built = await ad(linkAd!.creativeId, await adCopy(t.key, linkAd!.creativeId, "Fresh picks", "Shop the season"));
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const wide = await ad(banner!.creativeId, await adCopy(t.key, banner!.creativeId, "Fresh picks", "Shop the season"));
    expect(wide.status).toBe(400);
    expect(wide.body.error.message).toContain(`creative ${banner!.creativeId}: aspect ratio 2.07 is outside platform_a's 0.56 to 1.91`);
  }, 180_000);
});

describe("sandbox faults over REST", () => {
  it("sandbox-reject is upstream_error, sandbox-busy is upstream_busy twice then accepted, sandbox-terms is a terminal invalid_input", async () => {
    const t = await createTenant();
    const reject = await callTool(t.key, "create_campaign", { platform: "platform_a", name: "sandbox-reject campaign", objective: "sales" });
    expect(reject.status).toBe(502);
    expect(reject.body.error).toMatchObject({ code: "upstream_error", message: expect.stringContaining("sandbox-reject") });

    const busyArgs = { platform: "platform_b", name: "sandbox-busy campaign", objective: "sales", clientRef: "busy-1" };
    for (let i = 0; i < 2; i++) {
      const busy = await callTool(t.key, "create_campaign", busyArgs);
      expect(busy.status).toBe(503);
      expect(busy.body.error.code).toBe("upstream_busy");
      expect(busy.headers.get("retry-after")).toBe("1");
    }
    const accepted = await toolResult(t.key, "create_campaign", busyArgs);
    expect(accepted).toMatchObject({ created: true, campaign: { name: "sandbox-busy campaign" } });

    const terms = await callTool(t.key, "create_campaign", { platform: "platform_a", name: "sandbox-terms campaign", objective: "sales" });
    expect(terms.status).toBe(400);
    expect(terms.body.error).toMatchObject({ code: "invalid_input", message: expect.stringContaining("terms of service") });
    const again = await callTool(t.key, "create_campaign", { platform: "platform_a", name: "sandbox-terms campaign", objective: "sales" });
    expect(again.body.error).toEqual(terms.body.error);
    // Only the accepted campaign exists.
    expect((await toolResult(t.key, "list_campaigns", { platform: "platform_a" })).campaigns).toEqual([]);
    expect((await toolResult(t.key, "list_campaigns", { platform: "platform_b" })).campaigns).toHaveLength(1);
  });

  it("faults apply to ad sets and ads too", async () => {
    const t = await createTenant();
    const { campaign } = await campaignWithAdSet(t.key, "platform_a");
    const rejected = await callTool(t.key, "create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_a",
      name: "sandbox-reject set",
      budget: { type: "daily", amountMinor: 500 },
      targetCountries: ["US"],
    });
    expect(rejected.body.error.code).toBe("upstream_error");
    const [{ creativeId }] = await adCreatives(t.key);
    const { adSet } = await campaignWithAdSet(t.key, "platform_a");
    const terms = await callTool(t.key, "create_ad", {
      adSetId: adSet.id,
      creativeId,
      name: "sandbox-terms ad",
      callToAction: "learn_more",
      landingUrl: "https://example.com",
    });
    expect(terms.body.error.code).toBe("invalid_input");
    expect((await toolResult(t.key, "list_ads", {})).ads).toEqual([]);
  }, 120_000);
});

describe("who may do what with ads", () => {
  it("another workspace's campaign, ad set and ad ids are not found", async () => {
    const t = await createTenant();
    const { ad, adSet, campaign } = await pausedAd(t.key);
    const other = await createTenant();
    for (const [tool, args] of [
      ["get_campaign", { id: campaign.id }],
      ["update_campaign", { id: campaign.id, name: "x" }],
      ["activate_campaign", { id: campaign.id }],
      ["delete_campaign", { id: campaign.id }],
      ["list_ad_sets", { campaignId: campaign.id }],
      ["create_ad_set", { campaignId: campaign.id, platform: "platform_a", name: "x", budget: { type: "daily", amountMinor: 500 }, targetCountries: ["US"] }],
      ["get_ad_set", { id: adSet.id }],
      ["set_ad_set_budget", { id: adSet.id, budget: { type: "daily", amountMinor: 500 } }],
      ["get_ad", { id: ad.id }],
      ["activate_ads", { adIds: [ad.id] }],
      ["delete_ads", { adIds: [ad.id] }],
    ] as const) {
      const res = await callTool(other.key, tool, args);
      expect(res.status, tool).toBe(404);
      expect(res.body.error.code, tool).toBe("not_found");
    }
    expect((await toolResult(other.key, "list_campaigns", { platform: "platform_a" })).campaigns).toEqual([]);
    expect((await toolResult(t.key, "get_ad", { id: ad.id })).ad.status).toBe("paused");
  }, 120_000);

  it("roles and scopes: viewer reads, editor builds but neither launches nor deletes, each scope gates its tools", async () => {
    const t = await createTenant();
    const { ad, adSet } = await pausedAd(t.key);
    const viewer = await createMemberKey(t, { role: "viewer" });
    const editor = await createMemberKey(t, { role: "editor" });
    const admin_ = await createMemberKey(t, { role: "admin" });
    const viewOnly = await createMemberKey(t, { role: "owner", scopes: ["ads_view"] });
    const adsScope = await createMemberKey(t, { role: "owner", scopes: ["ads"] });
    const launchScope = await createMemberKey(t, { role: "owner", scopes: ["launch"] });
    const deleteScope = await createMemberKey(t, { role: "owner", scopes: ["ads_delete"] });

    const read = ["list_ads", {}] as const;
    const write = ["update_ad", { id: ad.id, name: "Renamed" }] as const;
    const launch = ["set_ad_set_budget", { id: adSet.id, budget: { type: "daily", amountMinor: 6000 } }] as const;
    // A later end time keeps the budget spending longer: launching, though update_ad_set renames with ads.write.
    const extend = ["update_ad_set", { id: adSet.id, endTime: "2099-12-31T00:00:00Z" }] as const;
    const rename = ["update_ad_set", { id: adSet.id, name: "Renamed set" }] as const;
    const remove = ["delete_ads", { adIds: ["ad_none"] }] as const; // 404 past the permission check
    const matrix: [string, string, readonly [string, object], number][] = [
      ["viewer", viewer.key, read, 200],
      ["viewer", viewer.key, write, 403],
      ["viewer", viewer.key, launch, 403],
      ["viewer", viewer.key, remove, 403],
      ["editor", editor.key, read, 200],
      ["editor", editor.key, write, 200],
      ["editor", editor.key, launch, 403],
      ["editor", editor.key, extend, 403],
      ["editor", editor.key, rename, 200],
      ["editor", editor.key, remove, 403],
      ["admin", admin_.key, launch, 200],
      ["admin", admin_.key, remove, 404],
      ["scope ads_view", viewOnly.key, read, 200],
      ["scope ads_view", viewOnly.key, write, 403],
      ["scope ads", adsScope.key, read, 403],
      ["scope ads", adsScope.key, write, 200],
      ["scope ads", adsScope.key, launch, 403],
      ["scope ads", adsScope.key, extend, 403],
      ["admin", admin_.key, extend, 200],
      ["scope launch", launchScope.key, launch, 200],
      ["scope launch", launchScope.key, remove, 403],
      ["scope ads_delete", deleteScope.key, remove, 404],
      ["scope ads_delete", deleteScope.key, write, 403],
    ];
    for (const [who, key, [tool, args], status] of matrix) {
      const res = await callTool(key, tool, args);
      expect(res.status, `${who} ${tool}: ${JSON.stringify(res.body)}`).toBe(status);
      if (status === 403) expect(res.body.error.code).toBe("forbidden");
    }
    const editorLaunch = await callTool(editor.key, "activate_ads", { adIds: [ad.id] });
    expect(editorLaunch.body.error.message).toContain('"ads.launch"');
  }, 120_000);

  it("a member limited to some folders cannot put the copy of a creative outside them into an ad", async () => {
    const t = await createTenant();
    const [mine, hidden] = await adCreatives(t.key, { count: 2 });
    const { folder: theirs } = await toolResult(t.key, "create_folder", { name: "Their brand" });
    const { folder: other } = await toolResult(t.key, "create_folder", { name: "Another brand" });
    await toolResult(t.key, "move_creatives", { ids: [mine!.creativeId], folderId: theirs.id });
    await toolResult(t.key, "move_creatives", { ids: [hidden!.creativeId], folderId: other.id });
    const hiddenCopy = await adCopy(t.key, hidden!.creativeId, "Secret launch", "Not yet announced");
    const { adSet } = await campaignWithAdSet(t.key);
    const editor = await createMemberKey(t, { role: "editor", folders: [theirs.id] });
    const ad = { adSetId: adSet.id, creativeId: mine!.creativeId, callToAction: "shop_now", landingUrl: "https://example.com/shop" };
    const refused = await callTool(editor.key, "create_ad", { ...ad, copyVariantId: hiddenCopy });
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toContain(hiddenCopy);
    const dryRun = await callTool(editor.key, "build_ads_from_library", {
      adSetId: adSet.id,
      creativeIds: [mine!.creativeId],
      copyVariantIds: [hiddenCopy],
      pairing: "all",
      callToAction: "shop_now",
      landingUrl: "https://example.com/shop",
      dryRun: true,
    });
    expect(dryRun.status).toBe(404);
    const ownCopy = await adCopy(editor.key, mine!.creativeId);
    expect((await callTool(editor.key, "create_ad", { ...ad, copyVariantId: ownCopy })).status).toBe(200);
  }, 120_000);

  it("a workspace may require two-factor for launching", async () => {
    const t = await createTenant();
    const { ad } = await pausedAd(t.key);
    await admin(["workspace", "two-factor", "--workspace", t.workspaceId, "--permissions", "ads.launch"]);
    const refused = await callTool(t.key, "activate_ads", { adIds: [ad.id] });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/two-factor/);
    // Building stays possible.
    expect((await callTool(t.key, "update_ad", { id: ad.id, name: "Still editable" })).status).toBe(200);
  }, 120_000);
});

describe("sandbox advance (operator CLI)", () => {
  it("validates its flags and prints one summary per workspace, with what each platform holds", async () => {
    const { sendAdminCommand } = await import("@/lib/admin/socket-client");
    const { inject } = await import("vitest");
    const t = await createTenant();
    for (const hours of ["0", "1.5", "99999", "x"]) {
      const { ok, body } = await sendAdminCommand(inject("dataDir"), ["sandbox", "advance", "--workspace", t.workspaceId, "--hours", hours]);
      expect(ok, hours).toBe(false);
      expect((body as any).error.message).toMatch(/--hours must be a whole number/);
    }
    const missing = await sendAdminCommand(inject("dataDir"), ["sandbox", "advance", "--workspace", "ws_missing", "--hours", "1"]);
    expect((missing.body as any).error.code).toBe("not_found");
    await pausedAd(t.key, "platform_b");
    const summary = await admin<any>(["sandbox", "advance", "--workspace", t.workspaceId, "--hours", "5"]);
    expect(summary).toMatchObject({ workspaceId: t.workspaceId, hours: 5, adsDelivered: 0, spendMinor: 0 });
    expect(summary.platforms.platform_b).toMatchObject({ currency: "USD", objects: { campaigns: 1, adSets: 1, ads: 1 } });
    expect(Date.parse(summary.simulatedNow) - Date.now()).toBeGreaterThan(4.9 * 3_600_000);
  }, 120_000);
});
