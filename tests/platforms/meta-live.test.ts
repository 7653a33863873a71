/**
 * platform_a live: a workspace on PLATFORMS_MODE=live with a Meta ad account connected to a local
 * Graph API fake (tests/helpers/fake-meta.ts, PLATFORM_A_API_URL). Through HTTP and the operator
 * CLI: media pushes (image hash, resumable video upload and processing), building and launching an
 * ad, status/budget/delete, insights into the rollup, leads, comments, and Graph errors mapped to
 * the tool codes (rate limits, refusals, a revoked token -> needs_reconnect -> not_connected).
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, api, createTenant, type Tenant } from "../helpers/fixtures";
import { fakeMeta, type FakeMeta } from "../helpers/fake-meta";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { mp4Video, pngImage } from "../helpers/media-fixtures";
import { startServer, tempDataDir, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";
import { cookieHeader, signIn } from "../dashboard/session";

const APP_SECRET = "meta-app-secret";
const ACCOUNT = "act_777000111";
const PAGE = "1000001";
const TOKEN = "meta-user-token";
const TZ = "America/New_York";
const CHUNK = 32 * 1024;

let meta: FakeMeta;
let server: TestServer;
let serverEnv: Record<string, string>;
let t: Tenant;
const dataDir = tempDataDir("meta-live");

const tool = (name: string, args: unknown = {}) => callTool(t.key, name, args, {}, server.url);
async function ok(name: string, args: unknown = {}): Promise<any> {
  const res = await tool(name, args);
  if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result;
}
const run = (argv: string[]) => admin<any>(argv, server.dataDir);
const proof = (token: string) => createHmac("sha256", APP_SECRET).update(token).digest("hex");
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const calls = (pattern: RegExp, method?: string) => meta.requests.filter((r) => pattern.test(r.path) && (!method || r.method === method));

async function pushed(files: { name: string; type: string; bytes: Buffer }[]): Promise<any[]> {
  const ids = await uploadIds(t.key, files, { platform: "platform_a", baseUrl: server.url });
  return Promise.all(ids.map((id) => finishedUpload(t.key, id, 90_000, server.url)));
}

async function creativeOf(fileName: string): Promise<string> {
  const c = await waitFor(`creative of ${fileName}`, async () => (await allCreatives(t.key, server.url)).find((x) => x.fileName === fileName), 60_000);
  await creativeWhen(t.key, c.id, (x) => x.status === "ready", 60_000, server.url);
  return c.id;
}

beforeAll(async () => {
  meta = await fakeMeta({
    version: "v24.0",
    appId: "meta-app-1",
    appSecret: APP_SECRET,
    accounts: {
      [ACCOUNT]: { name: "Acme US", currency: "USD", timezone_name: TZ, account_status: 1 },
      act_888000222: { name: "Acme EU", currency: "EUR", timezone_name: "Europe/Berlin", account_status: 1 },
    },
    pages: { [PAGE]: { name: "Acme" } },
    oauth: { code: "meta-code-1", token: "meta-short-token", accountIds: ["act_888000222"], pageIds: [PAGE] },
    videoChunkBytes: 16 * 1024,
  });
  meta.grant(TOKEN, [ACCOUNT], [PAGE]);
  serverEnv = {
    PLATFORMS_MODE: "live",
    PLATFORM_A_API_URL: meta.url,
    PLATFORM_A_API_VERSION: "v24.0",
    PLATFORM_A_APP_ID: "meta-app-1",
    PLATFORM_A_APP_SECRET: APP_SECRET,
    PLATFORM_RETRY_DELAYS_MS: "200,200",
    // Videos above 32 KiB go through the recorded chunked session (two of Meta's 16 KiB ranges per chunk).
    MEDIA_CHUNK_BYTES: String(CHUNK),
    LEADS_POLL: "0",
    COMMENTS_POLL: "0",
  };
  server = await startServer({ dataDir, env: serverEnv });
  t = await createTenant({ dataDir: server.dataDir });
  await run([
    "adaccount",
    "connect",
    "--workspace",
    t.workspaceId,
    "--platform",
    "platform_a",
    "--account",
    ACCOUNT,
    "--token",
    TOKEN,
    "--page",
    PAGE,
    "--default",
    "true",
  ]);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await meta?.close();
});

describe("platform_a live on Meta's Marketing API", () => {
  let imageCreativeId: string;
  let videoCreativeId: string;
  let imageHash: string;
  let videoId: string;

  it("pushes an image to /act_<id>/adimages: the upload's imageHash is Meta's hash; every call carries appsecret_proof", async () => {
    const name = `meta-${Date.now()}.png`;
    // Meta's link-ad size (1.91:1 as its guides print it, 1.9108 exactly): the ads built from it below go to Graph.
    const [upload] = await pushed([{ name, type: "image/png", bytes: await pngImage(1200, 628) }]);
    expect(upload.status).toBe("completed");
    const images = calls(/\/act_777000111\/adimages$/, "POST");
    expect(images).toHaveLength(1);
    expect(upload.platform_a.imageHash).toMatch(/^[0-9a-f]{32}$/);
    imageHash = upload.platform_a.imageHash;
    expect(meta.requests.every((r) => r.path.endsWith("/oauth/access_token") || r.params.appsecret_proof === proof(r.params.access_token ?? ""))).toBe(true);
    imageCreativeId = await creativeOf(name);
  }, 120_000);

  it("a rate-limited image push waits for Meta's wait (x-ad-account-usage reset_time_duration) before its next attempt", async () => {
    meta.failNext(
      /\/act_777000111\/adimages$/,
      { message: "(#17) User request limit reached", type: "OAuthException", code: 17, error_subcode: 2446079, is_transient: true },
      { headers: { "x-ad-account-usage": JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: 4, ads_api_access_tier: "standard_access" }) } },
    );
    const before = calls(/\/act_777000111\/adimages$/, "POST").length;
    const [upload] = await pushed([{ name: `meta-busy-${Date.now()}.png`, type: "image/png", bytes: await pngImage(300, 300) }]);
    expect(upload.status).toBe("completed");
    const [refused, accepted] = calls(/\/act_777000111\/adimages$/, "POST").slice(before);
    // The configured backoff is 200 ms; the job slept Meta's four seconds instead.
    expect(accepted!.at - refused!.at).toBeGreaterThanOrEqual(4000);
  }, 120_000);

  it("pushes a video with the resumable phases (start, a transfer per chunk Meta asks for, finish) and waits for processing", async () => {
    const name = `meta-${Date.now()}.mp4`;
    const bytes = mp4Video(320, 240, 1);
    const [upload] = await pushed([{ name, type: "video/mp4", bytes }]);
    expect(upload.status).toBe("completed");
    videoId = upload.platform_a.videoId;
    const phases = calls(/\/advideos$/, "POST").map((r) => r.params.upload_phase);
    expect(phases[0]).toBe("start");
    expect(phases.at(-1)).toBe("finish");
    expect(phases.filter((p) => p === "transfer").length).toBe(Math.ceil(bytes.length / (16 * 1024)));
    const transfers = calls(/\/advideos$/, "POST").filter((r) => r.params.upload_phase === "transfer");
    expect(Buffer.concat(transfers.map((r) => r.file!)).equals(bytes)).toBe(true);
    expect(meta.objects.get(videoId)?.kind).toBe("video");
    expect(calls(new RegExp(`/${videoId}$`), "GET").length).toBeGreaterThanOrEqual(2); // processing, then ready
    videoCreativeId = await creativeOf(name);
  }, 120_000);

  it("a push cut short while Meta processes the video finds that video on the next attempt instead of uploading a second copy", async () => {
    const name = `meta-cut-${Date.now()}.mp4`;
    const videosBefore = [...meta.objects.values()].filter((o) => o.kind === "video").length;
    // The first status poll is answered with a transient failure: attempt 1 of the push fails after finish.
    meta.loseNextAnswer(/^\/v24\.0\/\d+$/);
    const [upload] = await pushed([{ name, type: "video/mp4", bytes: mp4Video(320, 240, 1) }]);
    expect(upload.status).toBe("completed");
    const made = [...meta.objects.values()].filter((o) => o.kind === "video");
    expect(made.length).toBe(videosBefore + 1);
    expect(made.at(-1)!.id).toBe(upload.platform_a.videoId);
    expect(made.at(-1)!.title).toBe(`${name} [adloom:${upload.id}]`);
  }, 120_000);

  it("kill -9 during a video push: the restarted push continues the same Meta session, resends no finished chunk, and one video is made", async () => {
    const name = `meta-kill-${Date.now()}.mp4`;
    const bytes = mp4Video(480, 480, 4);
    const chunks = Math.ceil(bytes.length / CHUNK);
    expect(chunks).toBeGreaterThanOrEqual(3);
    const counts = { ...meta.videoCounts };
    // The second of Meta's ranges in our second chunk is in flight when the server dies: chunk 0 is recorded, chunk 1 is not.
    const inFlight = CHUNK + 16 * 1024;
    const hold = meta.holdNext(/\/act_777000111\/advideos$/, (p) => p.upload_phase === "transfer" && Number(p.start_offset) === inFlight);
    const [id] = await uploadIds(t.key, [{ name, type: "video/mp4", bytes }], { platform: "platform_a", baseUrl: server.url });
    await hold.arrived;
    await server.kill();
    const killedAt = Date.now();
    hold.release(); // Meta stores the chunk in flight; its answer goes nowhere.
    server = await startServer({ dataDir: server.dataDir, env: serverEnv });
    const upload = await finishedUpload(t.key, id!, 120_000, server.url);
    expect(upload.status).toBe("completed");

    // One session, one video: the restart did not start a second upload at Meta.
    expect(meta.videoCounts.started - counts.started).toBe(1);
    expect(meta.videoCounts.finished - counts.finished).toBe(1);
    const made = [...meta.objects.values()].filter((o) => o.kind === "video" && String(o.title).startsWith(name));
    expect(made).toHaveLength(1);
    expect(made[0]!.id).toBe(upload.platform_a.videoId);
    expect(made[0]!.size).toBe(bytes.length);
    const sessionId = calls(/\/advideos$/, "POST").find((r) => r.params.upload_phase === "transfer" && Number(r.params.start_offset) === inFlight)!.params
      .upload_session_id;
    const transfers = calls(/\/advideos$/, "POST").filter((r) => r.params.upload_session_id === sessionId && r.params.upload_phase === "transfer");
    const afterRestart = transfers.filter((r) => r.at > killedAt).map((r) => Number(r.params.start_offset));
    // Chunk 0 was acknowledged and recorded: never sent again. Only the chunk in flight (chunk 1) is offered once more, and Meta
    // answers with the range it wants next instead of storing it twice.
    expect(afterRestart[0]).toBe(CHUNK);
    expect(Math.min(...afterRestart)).toBeGreaterThanOrEqual(CHUNK);
    expect(afterRestart.filter((offset) => offset < 2 * CHUNK).length).toBeLessThanOrEqual(2);
    expect(meta.videoCounts.transfers - counts.transfers).toBeLessThanOrEqual(Math.ceil(bytes.length / (16 * 1024)) + 2);

    const creativeId = await creativeOf(name);
    const { pushes } = (await tool("list_creative_pushes", { creativeId })).body.result;
    expect(pushes).toEqual([expect.objectContaining({ state: "ready", chunksDone: chunks, chunksTotal: chunks, externalId: made[0]!.id })]);
  }, 240_000);

  it("a video Meta cannot process fails the upload with Meta's reason", async () => {
    const [upload] = await pushed([{ name: `meta-broken-${Date.now()}.mp4`, type: "video/mp4", bytes: mp4Video(320, 240, 1) }]);
    expect(upload.status).toBe("failed");
    expect(upload.error).toMatch(/format that we don't support/);
  }, 120_000);

  let campaign: any;
  let adSet: any;
  let ad: any;
  let videoAd: any;

  it("builds a campaign, ad set and ads: ODAX objective, special_ad_categories, countries, minor-unit budget, object_story_spec from the library creative and copy", async () => {
    campaign = (await ok("create_campaign", { platform: "platform_a", name: "Autumn sale", objective: "sales" })).campaign;
    const c = meta.objects.get(campaign.externalId)!;
    expect(c).toMatchObject({ objective: "OUTCOME_SALES", status: "PAUSED", special_ad_categories: [] });
    expect(campaign.name).toBe("Autumn sale");

    adSet = (
      await ok("create_ad_set", {
        campaignId: campaign.id,
        platform: "platform_a",
        name: "US and DE",
        budget: { type: "daily", amountMinor: 5000 },
        targetCountries: ["US", "DE"],
      })
    ).adSet;
    expect(meta.objects.get(adSet.externalId)).toMatchObject({
      campaign_id: campaign.externalId,
      daily_budget: "5000",
      billing_event: "IMPRESSIONS",
      optimization_goal: "LINK_CLICKS",
      status: "PAUSED",
      targeting: { geo_locations: { countries: ["US", "DE"] } },
    });

    const copy = await ok("create_copy_variant", { creativeId: imageCreativeId, headline: "Fresh picks", primaryText: "Shop the new season", label: "A" });
    const batchesBefore = calls(/^\/v24\.0\/?$/, "POST").length;
    ad = (
      await ok("create_ad", {
        adSetId: adSet.id,
        creativeId: imageCreativeId,
        copyVariantId: copy.id,
        callToAction: "shop_now",
        landingUrl: "https://example.com/shop",
      })
    ).ad;
    // The creative and the ad went in one batch request.
    expect(calls(/^\/v24\.0\/?$/, "POST").length).toBe(batchesBefore + 1);
    const made = meta.objects.get(ad.externalId)!;
    expect(made).toMatchObject({ adset_id: adSet.externalId, status: "PAUSED" });
    expect(meta.objects.get(made.creative_id)!.object_story_spec).toEqual({
      page_id: PAGE,
      link_data: {
        image_hash: imageHash,
        link: "https://example.com/shop",
        message: "Shop the new season",
        name: "Fresh picks",
        call_to_action: { type: "SHOP_NOW", value: { link: "https://example.com/shop" } },
      },
    });

    const videoCopy = await ok("create_copy_variant", { creativeId: videoCreativeId, headline: "Watch", primaryText: "See it move", label: "V" });
    videoAd = (
      await ok("create_ad", {
        adSetId: adSet.id,
        creativeId: videoCreativeId,
        copyVariantId: videoCopy.id,
        callToAction: "learn_more",
        landingUrl: "https://example.com/v",
      })
    ).ad;
    const videoSpec = meta.objects.get(meta.objects.get(videoAd.externalId)!.creative_id)!.object_story_spec;
    expect(videoSpec.video_data).toMatchObject({ video_id: videoId, title: "Watch", message: "See it move", image_url: expect.stringContaining(videoId) });
  }, 120_000);

  it("searches regions and cities by name (Targeting Search, type=adgeolocation) and targets an ad set by their keys, shown by name", async () => {
    const found = await ok("search_locations", { platform: "platform_a", query: "Berlin", types: ["region", "city"] });
    expect(found.locations).toEqual([
      { id: "1650", type: "region", name: "Berlin", countryCode: "DE", regionName: null, platform: "platform_a" },
      { id: "538985", type: "city", name: "Berlin", countryCode: "DE", regionName: "Berlin", platform: "platform_a" },
    ]);
    const search = calls(/^\/v24\.0\/search$/, "GET").at(-1)!;
    expect(search.params).toMatchObject({
      type: "adgeolocation",
      q: "Berlin",
      location_types: '["region","city"]',
      limit: "10",
      appsecret_proof: proof(TOKEN),
    });
    const [munich] = (await ok("search_locations", { platform: "platform_a", query: "munich", types: ["city"] })).locations;

    const { adSet: local } = await ok("create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_a",
      name: "Berlin and Munich",
      budget: { type: "daily", amountMinor: 5000 },
      targetCountries: ["US"],
      targetRegions: ["1650"],
      targetCities: [munich.id],
    });
    expect(meta.objects.get(local.externalId)!.targeting.geo_locations).toEqual({
      countries: ["US"],
      regions: [{ key: "1650" }],
      cities: [{ key: munich.id }],
    });
    expect(local).toMatchObject({ targetRegions: ["1650"], targetCities: [munich.id], locationNames: { "1650": "Berlin", [munich.id]: "Munich" } });
    // Meta refuses a key it does not know; the refusal is the tool's invalid_input with Meta's words.
    const refused = await tool("create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_a",
      name: "Nowhere",
      budget: { type: "daily", amountMinor: 5000 },
      targetCities: ["42"],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(/city/) });
  }, 60_000);

  it("a create whose answer was lost is found again by its clientRef on the retry: one campaign on Meta, not two", async () => {
    meta.loseNextAnswer(/\/act_777000111\/campaigns$/);
    const args = { platform: "platform_a", name: "Lost answer", objective: "awareness", clientRef: `lost-${Date.now()}` };
    const first = await tool("create_campaign", args);
    expect(first.status).toBe(502);
    expect(first.body.error.code).toBe("upstream_error");
    const again = await ok("create_campaign", args);
    const onMeta = [...meta.objects.values()].filter((o) => o.kind === "campaign" && String(o.name).startsWith("Lost answer"));
    expect(onMeta).toHaveLength(1);
    expect(again.campaign).toMatchObject({ externalId: onMeta[0]!.id, name: "Lost answer", objective: "awareness" });
  }, 60_000);

  it("activates, changes the budget, pauses and deletes on Meta", async () => {
    await ok("activate_campaign", { id: campaign.id });
    await ok("activate_ad_set", { id: adSet.id });
    await ok("activate_ads", { adIds: [ad.id, videoAd.id] });
    expect(meta.objects.get(campaign.externalId)!.status).toBe("ACTIVE");
    expect(meta.objects.get(ad.externalId)!.status).toBe("ACTIVE");
    await ok("set_ad_set_budget", { id: adSet.id, budget: { type: "daily", amountMinor: 7500 } });
    expect(meta.objects.get(adSet.externalId)!.daily_budget).toBe("7500");
    // An end time can be moved on Meta, not removed: the adapter would send nothing and Meta would keep the old one.
    const end = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await ok("update_ad_set", { id: adSet.id, endTime: end });
    expect(meta.objects.get(adSet.externalId)!.end_time).toBeTruthy();
    const cleared = await tool("update_ad_set", { id: adSet.id, endTime: null });
    expect(cleared.status).toBe(400);
    expect(cleared.body.error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(/cannot be removed here/) });
    expect((await ok("get_ad_set", { id: adSet.id })).adSet.endTime).toBe(end);
    await ok("update_campaign", { id: campaign.id, name: "Autumn sale 2" });
    expect((await ok("get_campaign", { id: campaign.id })).campaign.name).toBe("Autumn sale 2");
    // A bulk pause goes on past an ad Meta refuses, and says which one it was.
    meta.failNext(new RegExp(`/${ad.externalId}$`), {
      message: "Invalid parameter",
      type: "OAuthException",
      code: 100,
      error_user_msg: "The ad is under review.",
    });
    const bulk = await ok("pause_ads", { adIds: [ad.id, videoAd.id] });
    expect(bulk.ads.map((a: any) => [a.id, a.status])).toEqual([[videoAd.id, "paused"]]);
    expect(bulk.failed).toEqual([{ adId: ad.id, code: "invalid_input", message: expect.stringContaining("The ad is under review") }]);
    expect(meta.objects.get(ad.externalId)!.status).toBe("ACTIVE");
    expect(meta.objects.get(videoAd.externalId)!.status).toBe("PAUSED");
    await ok("delete_ads", { adIds: [videoAd.id] });
    expect(meta.objects.get(videoAd.externalId)!.status).toBe("DELETED");
  }, 60_000);

  it("pulls insights (level=ad, daily in the account's time zone) into the rollup", async () => {
    meta.setInsights(ad.externalId, today(), {
      impressions: 1200,
      reach: 900,
      clicks: 30,
      spend: "12.34",
      purchases: 2,
      purchaseValue: "80.50",
      frequency: 1.4,
    });
    const summary = await run(["performance", "rollup", "--workspace", t.workspaceId]);
    expect(JSON.stringify(summary)).not.toMatch(/not_connected|upstream/);
    const insightCalls = calls(/\/act_777000111\/insights$/, "GET");
    expect(insightCalls.some((r) => r.params.level === "ad" && r.params.time_increment === "1" && JSON.parse(r.params.time_range!).until === today())).toBe(
      true,
    );
    const got = (await ok("get_ad", { id: ad.id })).ad;
    expect(got.today).toMatchObject({ impressions: 1200, clicks: 30, spendMinor: 1234, conversions: 2 });
  }, 60_000);

  it("pulls the hourly breakdown (advertiser time zone, no unique fields) incrementally into hourly rows, one row per ad and hour", async () => {
    meta.setHourlyInsights(ad.externalId, today(), 9, { impressions: 500, clicks: 10, spend: "4.00" });
    meta.setHourlyInsights(ad.externalId, today(), 10, { impressions: 700, clicks: 20, spend: "8.34", purchases: 2, purchaseValue: "80.50" });
    const hourlyCalls = () => calls(/\/act_777000111\/insights$/, "GET").filter((r) => r.params.breakdowns !== undefined);
    const before = hourlyCalls().length;
    await run(["performance", "rollup", "--workspace", t.workspaceId]);
    await run(["performance", "rollup", "--workspace", t.workspaceId]); // again: the same hours, not twice
    const asked = hourlyCalls().slice(before);
    expect(asked.length).toBe(2);
    for (const r of asked) {
      expect(r.params).toMatchObject({ level: "ad", time_increment: "1", breakdowns: "hourly_stats_aggregated_by_advertiser_time_zone" });
      expect(r.params.fields!.split(",")).not.toContain("reach");
      // Incremental: from the day the last pull left partial (today), not the 30-day window.
      expect(JSON.parse(r.params.time_range!)).toEqual({ since: today(), until: today() });
    }
    const hours = (await ok("get_insights", { level: "ad", ids: [ad.id], breakdown: "hour", since: today(), until: today() })).rows;
    expect(hours.map((h: any) => [h.hour, h.impressions, h.clicks, Math.round(h.spend * 100), h.conversions, h.frequency])).toEqual([
      [9, 500, 10, 400, 0, null],
      [10, 700, 20, 834, 2, null],
    ]);
  }, 60_000);

  it("a server killed (SIGKILL) during an insights pull loses nothing: the next pull re-reads the same days, one row per ad and day and per ad and hour", async () => {
    meta.setInsights(ad.externalId, today(), { impressions: 2000, reach: 1500, clicks: 40, spend: "20.00", frequency: 1.5 });
    meta.setHourlyInsights(ad.externalId, today(), 11, { impressions: 800, clicks: 10, spend: "7.66" });
    // The daily rows are written; the hourly read is in flight when the server dies.
    const hold = meta.holdNext(/\/act_777000111\/insights$/, (p) => p.breakdowns !== undefined);
    const killed = run(["performance", "rollup", "--workspace", t.workspaceId]).catch(() => "killed");
    await hold.arrived;
    await server.kill();
    hold.release();
    expect(await killed).toBe("killed");
    server = await startServer({ dataDir: server.dataDir, env: serverEnv });
    await run(["performance", "rollup", "--workspace", t.workspaceId]);
    const days = (await ok("get_insights", { level: "ad", ids: [ad.id], breakdown: "day", since: today(), until: today() })).rows;
    expect(days.map((d: any) => [d.date, d.impressions, d.clicks, Math.round(d.spend * 100)])).toEqual([[today(), 2000, 40, 2000]]);
    const hours = (await ok("get_insights", { level: "ad", ids: [ad.id], breakdown: "hour", since: today(), until: today() })).rows;
    expect(hours.map((h: any) => [h.hour, h.impressions])).toEqual([
      [9, 500],
      [10, 700],
      [11, 800],
    ]);
  }, 180_000);

  it("a deleted ad's spend stays in the rollup and its numbers: every insights read asks for deleted and archived ads (ad.effective_status)", async () => {
    // videoAd was deleted above; Meta still reports what it spent before that (and up to 28 days of late actions),
    // but a level=ad report leaves it out unless the filter asks for DELETED.
    expect(meta.objects.get(videoAd.externalId)!.status).toBe("DELETED");
    meta.setInsights(videoAd.externalId, today(), { impressions: 300, reach: 250, clicks: 6, spend: "3.21", frequency: 1.2 });
    meta.setHourlyInsights(videoAd.externalId, today(), 8, { impressions: 300, clicks: 6, spend: "3.21" });
    const before = calls(/\/act_777000111\/insights$/, "GET").length;
    await run(["performance", "rollup", "--workspace", t.workspaceId]);
    const days = (await ok("get_insights", { level: "ad", ids: [videoAd.id], breakdown: "day", since: today(), until: today() })).rows;
    expect(days.map((d: any) => [d.date, d.impressions, d.clicks, Math.round(d.spend * 100)])).toEqual([[today(), 300, 6, 321]]);
    const hours = (await ok("get_insights", { level: "ad", ids: [videoAd.id], breakdown: "hour", since: today(), until: today() })).rows;
    expect(hours.map((h: any) => [h.hour, h.impressions, Math.round(h.spend * 100)])).toEqual([[8, 300, 321]]);
    // The ad's own numbers (read live by ad id) keep the spend too.
    expect((await ok("get_ad_insights", { id: videoAd.id, since: today(), until: today() })).days).toEqual([
      expect.objectContaining({ date: today(), spendMinor: 321, impressions: 300 }),
    ]);
    const asked = calls(/\/act_777000111\/insights$/, "GET").slice(before);
    expect(asked.length).toBeGreaterThanOrEqual(3); // daily, lifetime frequency, hourly, then the ad's own read
    for (const r of asked) {
      const status = JSON.parse(r.params.filtering!).find((f: any) => f.field === "ad.effective_status");
      expect(status).toMatchObject({ operator: "IN", value: expect.arrayContaining(["ACTIVE", "PAUSED", "DELETED", "ARCHIVED"]) });
    }

    // The wire fake as Meta documents it: without that filter the deleted ad's row is left out; a malformed filter is refused.
    const insightsUrl = (params: Record<string, string>) =>
      `${meta.url}/v24.0/${ACCOUNT}/insights?${new URLSearchParams({ access_token: TOKEN, appsecret_proof: proof(TOKEN), level: "ad", ...params })}`;
    const range = { time_increment: "1", time_range: JSON.stringify({ since: today(), until: today() }), fields: "ad_id,spend" };
    const plain = await (await fetch(insightsUrl(range))).json();
    expect(plain.data.map((r: any) => r.ad_id)).not.toContain(videoAd.externalId);
    expect(plain.data.map((r: any) => r.ad_id)).toContain(ad.externalId);
    for (const filtering of [
      "not json",
      JSON.stringify({ field: "ad.effective_status" }),
      JSON.stringify([{ field: "ad.effective_status", operator: "IN", value: ["GONE"] }]),
    ]) {
      const refused = await fetch(insightsUrl({ ...range, filtering }));
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatchObject({ code: 100, message: expect.stringMatching(/^\(#100\) /), fbtrace_id: expect.any(String) });
    }
  }, 120_000);

  it("a creative test declares no winner on zero conversions, however unequal the spend; one with conversions is decided", async () => {
    const { adSet: cell } = await ok("create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_a",
      name: "Test cell",
      budget: { type: "daily", amountMinor: 5000 },
      targetCountries: ["US"],
    });
    const cellAds = [];
    for (const [creativeId, label] of [
      [imageCreativeId, "T1"],
      [videoCreativeId, "T2"],
    ] as const) {
      const copy = await ok("create_copy_variant", { creativeId, headline: "Cell", primaryText: "Test cell", label });
      cellAds.push(
        (await ok("create_ad", { adSetId: cell.id, creativeId, copyVariantId: copy.id, callToAction: "shop_now", landingUrl: "https://example.com/cell" })).ad,
      );
    }
    const [cheap, dear] = cellAds;
    const { test } = await ok("create_creative_test", {
      name: "CPA with no conversions",
      adSetId: cell.id,
      metric: "cpa",
      creativeIds: [imageCreativeId, videoCreativeId],
      minSample: 100,
      maxDays: 30,
    });
    // Both past the sample with no conversion at all: the one that spent less is no cheaper per conversion, only less tried.
    meta.setInsights(cheap.externalId, today(), { impressions: 8000, reach: 6000, clicks: 200, spend: "5.00", frequency: 1.3 });
    meta.setInsights(dear.externalId, today(), { impressions: 90000, reach: 60000, clicks: 2500, spend: "300.00", frequency: 1.5 });
    await run(["performance", "rollup", "--workspace", t.workspaceId]);
    let current = (await ok("get_creative_test", { id: test.id })).test;
    expect(current).toMatchObject({ status: "running", outcome: null, winnerCreativeId: null, progress: { minSampleReached: true, leaderCreativeId: null } });
    expect(current.progress.variants.map((v: any) => [v.conversions, v.value])).toEqual([
      [0, null],
      [0, null],
    ]);
    // Conversions decide it.
    meta.setInsights(cheap.externalId, today(), {
      impressions: 8000,
      reach: 6000,
      clicks: 200,
      spend: "5.00",
      purchases: 4,
      purchaseValue: "40.00",
      frequency: 1.3,
    });
    await run(["performance", "rollup", "--workspace", t.workspaceId]);
    current = (await ok("get_creative_test", { id: test.id })).test;
    expect(current).toMatchObject({ status: "completed", outcome: "won", winnerCreativeId: imageCreativeId });
  }, 60_000);

  it("pulls leads from the Page's forms oldest first, with the per-form cap and cursor", async () => {
    const base = Date.now() - 60 * 60_000;
    const form = `${PAGE}101`;
    for (let i = 0; i < 5; i++)
      meta.addLead(form, { adId: ad.externalId, at: new Date(base + i * 60_000), fields: { full_name: `Person ${i}`, email: `p${i}@example.com` } });
    const first = await run(["leads", "pull", "--workspace", t.workspaceId, "--limit", "3"]);
    expect(first.stored).toBe(3);
    const second = await run(["leads", "pull", "--workspace", t.workspaceId]);
    expect(second.stored).toBe(2);
    const leads = (await ok("list_leads", { limit: 50 })).leads;
    expect(leads).toHaveLength(5);
    expect(leads.map((l: any) => l.fields?.find?.((f: any) => f.name === "email")?.values?.[0] ?? JSON.stringify(l)).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `p${i}@example.com`),
    );
  }, 60_000);

  it("a form's own question keys head the CSV export's columns, neutralized as its cells are (a key may start with = + - @)", async () => {
    // Custom questions' keys are the advertiser's words, read from Graph as they are (lower-cased): a spreadsheet would run them.
    const keys = ["email", '=hyperlink("https://evil.example")', "@sum(1)", "+cmd", "-cmd"];
    const formId = meta.addLeadForm(PAGE, "Custom questions", keys);
    meta.addLead(formId, { adId: ad.externalId, at: new Date(), fields: { email: "custom@example.com", "@sum(1)": "=1+1" } });
    await run(["leads", "pull", "--workspace", t.workspaceId]);
    const form = (await ok("list_lead_forms")).forms.find((f: any) => f.externalId === formId);
    expect(form).toMatchObject({ questions: keys, leadCount: 1 });
    const res = await fetch(`${server.url}/api/v1/leads/export.csv?formId=${form.id}`, { headers: { Authorization: `Bearer ${t.key}` } });
    expect(res.status).toBe(200);
    const [header, row] = (await res.text()).slice(1).split("\r\n");
    expect(header!.split(",").slice(8)).toEqual(["email", `"'=hyperlink(""https://evil.example"")"`, "'@sum(1)", "'+cmd", "'-cmd"]);
    expect(row!.split(",").slice(8)).toEqual(["custom@example.com", "", "'=1+1", "", ""]);
  }, 60_000);

  it("more submissions after the cursor than one read holds (Graph lists them newest first): the oldest still come first, none skipped", async () => {
    const form = `${PAGE}101`;
    // After the five above: 10,050 submissions, four a second (Graph's created_time has whole seconds).
    const base = Date.now() - 55 * 60_000;
    const backlog = 10_050;
    for (let i = 0; i < backlog; i++)
      meta.addLead(form, { adId: ad.externalId, at: new Date(base + i * 250), fields: { full_name: `Backlog ${i}`, email: `b${i}@example.com` } });
    const emails = async () =>
      (await ok("list_leads", { limit: 200 })).leads
        .map((l: any) => l.fields.find((f: any) => f.name === "email").values[0])
        .filter((e: string) => e.startsWith("b"))
        .sort((x: string, y: string) => Number(x.slice(1, -12)) - Number(y.slice(1, -12)));
    expect((await run(["leads", "pull", "--workspace", t.workspaceId, "--limit", "60"])).stored).toBe(60);
    expect(await emails()).toEqual(Array.from({ length: 60 }, (_, i) => `b${i}@example.com`));
    expect((await run(["leads", "pull", "--workspace", t.workspaceId, "--limit", "60"])).stored).toBe(60);
    expect(await emails()).toEqual(Array.from({ length: 120 }, (_, i) => `b${i}@example.com`));
  }, 120_000);

  it("pulls comments on the ads' posts into moderation, hides one and replies as the Page", async () => {
    const spam = meta.comment(ad.externalId, "cheap pills here", { at: new Date(Date.now() - 120_000) });
    const question = meta.comment(ad.externalId, "Do you ship to Germany?", { at: new Date(Date.now() - 60_000) });
    await run(["moderation", "pull", "--workspace", t.workspaceId]);
    const inbox = (await ok("list_ad_comments", { limit: 50 })).comments;
    const bySpam = inbox.find((c: any) => c.externalId === spam.id);
    const byQuestion = inbox.find((c: any) => c.externalId === question.id);
    expect(bySpam).toBeTruthy();
    expect(byQuestion).toBeTruthy();
    await ok("hide_ad_comments", { ids: [bySpam.id] });
    expect(meta.comments.get(spam.id)!.is_hidden).toBe(true);
    await ok("unhide_ad_comments", { ids: [bySpam.id] });
    expect(meta.comments.get(spam.id)!.is_hidden).toBe(false);
    await ok("hide_ad_comments", { ids: [bySpam.id] });
    await ok("reply_to_ad_comment", { id: byQuestion.id, message: "Yes, we do!" });
    const replies = [...meta.comments.values()].filter((c) => c.parent?.id === question.id);
    expect(replies).toMatchObject([{ message: "Yes, we do!", from: { id: PAGE } }]);
    await ok("delete_ad_comments", { ids: [bySpam.id] });
    expect(meta.comments.get(spam.id)!.deleted).toBe(true);

    // Gone on Meta before the moderator acts (its author deleted it): Graph answers code 100, subcode 33. A delete is then
    // done (the inbox row is deleted, not failed for ever); a hide cannot be, and says why and what to do instead.
    const gone = [meta.comment(ad.externalId, "deleted by its author"), meta.comment(ad.externalId, "also deleted by its author")];
    await run(["moderation", "pull", "--workspace", t.workspaceId]);
    for (const c of gone) meta.comments.get(c.id)!.deleted = true;
    const [byGone, byAlsoGone] = gone.map((c) => c.id);
    const rows = (await ok("list_ad_comments", { limit: 50 })).comments;
    const [goneRow, alsoGoneRow] = [byGone, byAlsoGone].map((id) => rows.find((c: any) => c.externalId === id));
    const deleted = await ok("delete_ad_comments", { ids: [goneRow.id] });
    expect(deleted.results).toEqual([{ id: goneRow.id, ok: true, comment: expect.objectContaining({ state: "deleted" }) }]);
    const refusedDelete = meta.requests.filter((r) => r.method === "DELETE" && r.path.endsWith(`/${byGone}`));
    expect(refusedDelete).toHaveLength(1);
    const hidden = await ok("hide_ad_comments", { ids: [alsoGoneRow.id] });
    expect(hidden.results).toEqual([
      {
        id: alsoGoneRow.id,
        ok: false,
        error: { code: "invalid_input", message: expect.stringContaining(`platform_a no longer has comment ${byAlsoGone}`) },
      },
    ]);
    expect(hidden.results[0].error.message).toContain("delete it from the inbox");
    // Nor a reply: refused the same way (not Graph's own refusal passed on), before anything is posted.
    const reply = await tool("reply_to_ad_comment", { id: alsoGoneRow.id, message: "Thanks!" });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining(
        `platform_a no longer has comment ${byAlsoGone} (deleted by its author or on the Page), so it cannot be replied to: delete it from the inbox`,
      ),
    });
    expect(calls(new RegExp(`/${byAlsoGone}/comments$`), "POST")).toHaveLength(0);
    expect((await ok("get_ad_comment_audit", { id: alsoGoneRow.id })).comment.state).toBe("new");
  }, 60_000);

  it("a server killed (SIGKILL) while a keyword rule hides a comment hides it at the next pull, recorded once", async () => {
    await ok("create_moderation_rule", { keyword: "free followers" });
    const spam = meta.comment(ad.externalId, "FREE followers, check my profile");
    const hold = meta.holdNext(new RegExp(`/${spam.id}$`), (p) => p.is_hidden === "true");
    const killed = run(["moderation", "pull", "--workspace", t.workspaceId]).catch(() => "killed");
    await hold.arrived;
    await server.kill();
    hold.release();
    expect(await killed).toBe("killed");
    server = await startServer({ dataDir: server.dataDir, env: serverEnv });
    const summary = await run(["moderation", "pull", "--workspace", t.workspaceId]);
    expect(summary.accounts).toEqual([expect.objectContaining({ hiddenByRules: 1, ruleFailures: 0 })]);
    const inbox = (await ok("list_ad_comments", { limit: 50 })).comments;
    const row = inbox.find((c: any) => c.externalId === spam.id);
    expect(row.state).toBe("hidden");
    expect(meta.comments.get(spam.id)!.is_hidden).toBe(true);
    const { audit } = await ok("get_ad_comment_audit", { id: row.id });
    expect(audit).toEqual([expect.objectContaining({ action: "hide", actor: expect.objectContaining({ kind: "rule", keyword: "free followers" }) })]);
    // Pulled again: nothing to redo.
    expect((await run(["moderation", "pull", "--workspace", t.workspaceId])).accounts[0]).toMatchObject({ hiddenByRules: 0 });
  }, 180_000);

  it("connects through Facebook Login: code, long-lived token (fb_exchange_token), the granted ad accounts and the Page", async () => {
    const email = `meta-oauth-${Date.now()}@example.com`;
    const { workspaceId, ownerUserId } = await run(["workspace", "create", "--name", "Meta OAuth Co", "--owner-email", email]);
    await run(["user", "password", "--email", email, "--password", "a long enough password"]);
    const { jar } = await signIn(email, "a long enough password", "", server.url);
    const get = async (p: string) => {
      const res = await fetch(server.url + p, { headers: { Cookie: cookieHeader(jar) }, redirect: "manual" });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const i = pair!.indexOf("=");
        jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1));
      }
      return new URL(res.headers.get("location") ?? "", server.url);
    };
    const start = await get("/api/ad-accounts/oauth/platform_a/start");
    expect(start.searchParams.get("scope")!.split(",")).toEqual(
      expect.arrayContaining(["ads_management", "ads_read", "leads_retrieval", "pages_read_engagement", "pages_manage_engagement"]),
    );
    const back = await get(`/api/ad-accounts/oauth/platform_a/callback?code=meta-code-1&state=${start.searchParams.get("state")}`);
    expect(back.searchParams.get("error")).toBeNull();
    expect(back.searchParams.get("connected")).toBe("1");
    expect(meta.requests.some((r) => r.path.endsWith("/oauth/access_token") && r.params.fb_exchange_token === "meta-short-token")).toBe(true);
    // The adapter now calls with the long-lived token, and the Page granted became the ads' identity.
    const account = (await run(["adaccount", "list", "--workspace", workspaceId])).adAccounts.find((a: any) => a.externalId === "act_888000222");
    expect(account).toMatchObject({ mode: "live", status: "active", default: true });
    const { key } = await run(["key", "create", "--workspace", workspaceId, "--user", ownerUserId]);
    const listed = await callTool(key, "list_connected_ad_accounts", {}, {}, server.url);
    expect(listed.body.result.adAccounts.find((a: any) => a.externalAccountId === "act_888000222")).toMatchObject({ pageId: PAGE });
    const read = meta.requests.filter((r) => r.path.endsWith("/act_888000222"));
    expect(read.at(-1)!.params.access_token).toBe("meta-short-token-long");
  }, 60_000);

  it("two Meta accounts, in dollars and in euros: each one's money in its own currency (a creative test, get_insights rows, a creative's figures)", async () => {
    const EU = "act_888000222";
    meta.grant("meta-eu-token", [EU], [PAGE]);
    // The euro account is the default only while its campaign is made; the dollar account's cursor keeps the days.
    const eu = await run([
      "adaccount",
      "connect",
      "--workspace",
      t.workspaceId,
      "--platform",
      "platform_a",
      "--account",
      EU,
      "--token",
      "meta-eu-token",
      "--page",
      PAGE,
      "--default",
      "true",
    ]);
    expect(eu.currency).toBe("EUR");
    const euCampaign = (await ok("create_campaign", { platform: "platform_a", name: "Herbst", objective: "sales" })).campaign;
    const us = (await ok("list_connected_ad_accounts")).adAccounts.find((a: any) => a.externalAccountId === ACCOUNT);
    await ok("set_default_ad_account", { id: us.id });
    const euSet = (
      await ok("create_ad_set", {
        campaignId: euCampaign.id,
        platform: "platform_a",
        name: "DE",
        budget: { type: "daily", amountMinor: 5000 },
        targetCountries: ["DE"],
      })
    ).adSet;
    for (const [creativeId, label] of [
      [imageCreativeId, "E1"],
      [videoCreativeId, "E2"],
    ] as const) {
      const copy = await ok("create_copy_variant", { creativeId, headline: "Herbst", primaryText: "Neu", label });
      // Its media goes to the euro account first (a build), then the ad is made there.
      await ok("create_ad", { adSetId: euSet.id, creativeId, copyVariantId: copy.id, callToAction: "shop_now", landingUrl: "https://example.com/de" });
    }
    const euAds: any[] = await waitFor(
      "the euro account's ads",
      async () => {
        const ads = (await ok("list_ads", { adSetId: euSet.id })).ads;
        return ads.length === 2 && ads;
      },
      90_000,
    );
    const euAd = (creativeId: string) => euAds.find((a) => a.creativeId === creativeId);
    const { test } = await ok("create_creative_test", {
      name: "In euros",
      adSetId: euSet.id,
      metric: "cpa",
      creativeIds: [imageCreativeId, videoCreativeId],
      minSample: 100_000_000,
      maxDays: 30,
    });
    // The image mostly delivers on the euro account: more impressions there than on the dollar one's ads.
    meta.setInsights(euAd(imageCreativeId).externalId, today(), {
      impressions: 30_000,
      reach: 20_000,
      clicks: 600,
      spend: "90.00",
      purchases: 6,
      purchaseValue: "300.00",
      frequency: 1.5,
    });
    meta.setInsights(euAd(videoCreativeId).externalId, today(), {
      impressions: 4_000,
      reach: 3_000,
      clicks: 80,
      spend: "12.00",
      purchases: 1,
      purchaseValue: "20.00",
      frequency: 1.3,
    });
    const summary = await run(["performance", "rollup", "--workspace", t.workspaceId]);
    expect(JSON.stringify(summary)).not.toMatch(/not_connected|upstream/);
    expect(calls(new RegExp(`/${EU}/insights$`), "GET").length).toBeGreaterThan(0);

    // The test's ad set is on the euro account: its spend is in euros, not in the default account's dollars.
    const { progress } = (await ok("get_creative_test", { id: test.id })).test;
    expect(progress.currency).toBe("EUR");
    for (const v of progress.variants) {
      // The test counts from its own account's day (Berlin's may be a day ahead of the dollar account's, not pulled yet).
      if (test.startDate > today()) expect(v.spend).toBe(0);
      else
        expect((await ok("get_insights", { level: "ad", ids: [euAd(v.creativeId).id], since: test.startDate })).rows).toEqual([
          expect.objectContaining({ currency: "EUR", spend: v.spend }),
        ]);
    }
    // get_insights: a row per account, naming it and its currency.
    const adSets = await ok("get_insights", { level: "ad_set", ids: [adSet.id, euSet.id], since: today(), until: today() });
    expect(adSets.currency).toBeNull();
    expect(adSets.rows).toHaveLength(2);
    expect(adSets.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: adSet.id, platform: "platform_a", adAccountId: us.id, currency: "USD" }),
        expect.objectContaining({ id: euSet.id, platform: "platform_a", adAccountId: eu.adAccountId, currency: "EUR", spend: 102, impressions: 34_000 }),
      ]),
    );
    const image = await ok("get_insights", { level: "creative", ids: [imageCreativeId], since: today(), until: today() });
    expect(image.rows).toHaveLength(2);
    const inDollars = image.rows.find((r: any) => r.adAccountId === us.id);
    expect(inDollars).toMatchObject({ currency: "USD" });
    expect(image.rows.find((r: any) => r.adAccountId === eu.adAccountId)).toMatchObject({ currency: "EUR", spend: 90, impressions: 30_000, conversions: 6 });
    // The creative's figures: its euro account's alone (more impressions), never euros and dollars added up.
    expect(inDollars.impressions).toBeLessThan(30_000);
    const listed = (await ok("list_creative_performance", {})).creatives.find((c: any) => c.creativeId === imageCreativeId);
    expect(listed).toMatchObject({ currency: "EUR", spend: 90, impressions: 30_000, conversions: 6 });
  }, 180_000);

  it("maps Graph errors: rate limits -> upstream_busy with the usage header's wait; a refused parameter -> invalid_input with Meta's message", async () => {
    meta.failNext(
      /\/act_777000111\/campaigns$/,
      { message: "(#17) User request limit reached", type: "OAuthException", code: 17, error_subcode: 2446079, is_transient: true },
      {
        headers: {
          "x-business-use-case-usage": JSON.stringify({
            "999": [{ type: "ads_management", call_count: 100, total_cputime: 20, total_time: 30, estimated_time_to_regain_access: 3 }],
          }),
        },
      },
    );
    const busy = await tool("create_campaign", { platform: "platform_a", name: "Busy", objective: "traffic" });
    expect(busy.status).toBe(503);
    expect(busy.body.error.code).toBe("upstream_busy");
    expect(busy.headers.get("retry-after")).toBe("180");

    meta.failNext(/\/act_777000111\/campaigns$/, {
      message: "Invalid parameter",
      type: "OAuthException",
      code: 100,
      error_subcode: 1885183,
      error_user_title: "Ads creative post was created by an app that is in development mode",
      error_user_msg: "The app must be set to public to create this ad.",
    });
    const refused = await tool("create_campaign", { platform: "platform_a", name: "Refused", objective: "traffic" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "invalid_input", message: expect.stringContaining("The app must be set to public") });
  }, 60_000);

  it("a revoked token moves the account to needs_reconnect; the next call answers not_connected without calling Meta", async () => {
    meta.revoke(TOKEN);
    const first = await tool("create_campaign", { platform: "platform_a", name: "After revoke", objective: "traffic" });
    expect(first.status).toBe(400);
    expect(first.body.error.code).toBe("not_connected");
    const listed = await run(["adaccount", "list", "--workspace", t.workspaceId]);
    expect(listed.adAccounts.find((a: any) => a.externalId === ACCOUNT).status).toBe("needs_reconnect");
    const before = meta.requests.length;
    const second = await tool("create_campaign", { platform: "platform_a", name: "Again", objective: "traffic" });
    expect(second.body.error.code).toBe("not_connected");
    expect(second.body.error.message).toMatch(/reconnect/i);
    expect(meta.requests.length).toBe(before);
    // Reconnecting with a new token brings it back.
    meta.grant("meta-user-token-2", [ACCOUNT], [PAGE]);
    await run([
      "adaccount",
      "connect",
      "--workspace",
      t.workspaceId,
      "--platform",
      "platform_a",
      "--account",
      ACCOUNT,
      "--token",
      "meta-user-token-2",
      "--page",
      PAGE,
    ]);
    expect((await api(t.key, server.url)("/api/v1/tools/list_campaigns", { method: "POST", json: { platform: "platform_a" } })).status).toBe(200);
  }, 60_000);
});
