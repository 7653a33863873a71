/**
 * platform_b live against a wire fake of TikTok's API for Business (tests/helpers/fake-tiktok.ts):
 * a live-mode server (PLATFORMS_MODE=live) whose PLATFORM_B_API_URL points at the fake, an advertiser
 * connected with a token and an identity, then the real stack over HTTP: media pushed by the upload
 * job (image with its MD5, a video in chunks), campaign / ad group / ad built and launched, budgets,
 * statuses and delete, the report pulled into the rollup, comments into moderation, and TikTok's
 * return codes as the tools' errors (down to a refused token: needs_reconnect, then not_connected).
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, createTenant, type Tenant } from "../helpers/fixtures";
import { fakeTikTok, type FakeTikTok } from "../helpers/fake-tiktok";
import { finishedUpload, uploadIds, waitFor, allCreatives, creativeWhen } from "../helpers/library";
import { mp4Video, pngImage } from "../helpers/media-fixtures";
import { startServer, tempDataDir, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";
import { cookieHeader, signIn } from "../dashboard/session";

const ADVERTISER = "7123456789012345678";
const ADVERTISER_2 = "7000000000000000777";
const IDENTITY = "6990001112223334445";
const TOKEN = "tt-live-token";
const CHUNK_THRESHOLD = 40_000;
/** Our chunk (MEDIA_CHUNK_BYTES): two of the fake's 16 KiB ranges. */
const CHUNK = 32 * 1024;

let tiktok: FakeTikTok;
let server: TestServer;
let t: Tenant;

const md5 = (b: Buffer) => createHash("md5").update(b).digest("hex");
const tool = (name: string, args: unknown = {}) => callTool(t.key, name, args, {}, server.url);
async function result(name: string, args: unknown = {}): Promise<any> {
  const res = await tool(name, args);
  if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result;
}
const calls = (route: string) => tiktok.requests.filter((r) => r.path === `/open_api/v1.3/${route}`);

const serverEnv = () => ({
  PLATFORMS_MODE: "live",
  PLATFORM_B_API_URL: tiktok.url,
  PLATFORM_B_APP_ID: "tt-app-1",
  PLATFORM_B_APP_SECRET: "tt-secret-1",
  PLATFORM_B_CHUNK_THRESHOLD_BYTES: String(CHUNK_THRESHOLD),
  MEDIA_CHUNK_BYTES: String(CHUNK),
  PLATFORM_RETRY_DELAYS_MS: "1000",
  PLATFORM_B_BUSY_WAIT_SECONDS: "3",
  LEADS_POLL: "0",
  COMMENTS_POLL: "0",
});

beforeAll(async () => {
  tiktok = await fakeTikTok({
    advertisers: {
      [ADVERTISER]: { name: "Acme TikTok", currency: "USD", timezone: "Etc/GMT", display_timezone: "UTC", status: "STATUS_ENABLE" },
      [ADVERTISER_2]: { name: "Acme TikTok EU", currency: "EUR", timezone: "Etc/GMT-1", display_timezone: "Europe/Paris", status: "STATUS_ENABLE" },
    },
    oauth: { appId: "tt-app-1", secret: "tt-secret-1", code: "tt-code-1", token: "tt-oauth-token", advertiserIds: [ADVERTISER_2] },
    identities: { [ADVERTISER_2]: ["6990000000000000222"] },
  });
  tiktok.chunkSize = 16 * 1024;
  // TikTok's chunk upload takes 20 MB files at least; here the adapter's threshold, lowered alike.
  tiktok.minChunkUploadBytes = CHUNK_THRESHOLD;
  tiktok.videoProcessingPolls = 2;
  server = await startServer({ dataDir: tempDataDir("tiktok"), env: serverEnv() });
  t = await createTenant({ dataDir: server.dataDir });
  tiktok.grant(TOKEN, [ADVERTISER]);
  const connected = await admin<any>(
    [
      "adaccount",
      "connect",
      "--workspace",
      t.workspaceId,
      "--platform",
      "platform_b",
      "--account",
      ADVERTISER,
      "--token",
      TOKEN,
      "--identity",
      IDENTITY,
      "--default",
      "true",
    ],
    server.dataDir,
  );
  expect(connected).toMatchObject({ platform: "platform_b", externalId: ADVERTISER, currency: "USD", status: "active" });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await tiktok?.close();
});

async function pushed(file: { name: string; type: string; bytes: Buffer }) {
  const [id] = await uploadIds(t.key, [file], { platform: "platform_b", baseUrl: server.url });
  const upload = await finishedUpload(t.key, id!, 90_000, server.url);
  const creative = await waitFor(`creative of ${file.name}`, async () => (await allCreatives(t.key, server.url)).find((c) => c.fileName === file.name), 60_000);
  await creativeWhen(t.key, creative.id, (c) => c.status === "ready", 60_000, server.url);
  return { upload, creativeId: creative.id as string };
}

describe("platform_b live (TikTok API for Business)", () => {
  let image: { upload: any; creativeId: string };
  let video: { upload: any; creativeId: string };
  let campaign: any;
  let adSet: any;
  let ad: any;

  it("pushes an image by file with its MD5 signature: the Upload gets TikTok's image id", async () => {
    const bytes = await pngImage(400, 400);
    image = await pushed({ name: "tt-square.png", type: "image/png", bytes });
    expect(image.upload.status).toBe("completed");
    const [sent] = calls("file/image/ad/upload/");
    expect(sent!.headers["access-token"]).toBe(TOKEN);
    expect(sent!.body).toMatchObject({ advertiser_id: ADVERTISER, upload_type: "UPLOAD_BY_FILE", image_signature: md5(bytes) });
    expect(sent!.body.image_file.md5).toBe(md5(bytes));
    const [stored] = [...tiktok.images.values()];
    expect(image.upload.platform_b.imageId).toBe(stored!.image_id);
  }, 120_000);

  it("a push TikTok rate limits (40100) waits PLATFORM_B_BUSY_WAIT_SECONDS, not the 1 s backoff, before its next attempt", async () => {
    tiktok.failNext("file/image/ad/upload/", 40100, "Requests made too frequently.");
    const before = calls("file/image/ad/upload/").length;
    const busy = await pushed({ name: "tt-busy.png", type: "image/png", bytes: await pngImage(320, 320) });
    expect(busy.upload.status).toBe("completed");
    const [refused, accepted] = calls("file/image/ad/upload/").slice(before);
    expect(accepted!.at - refused!.at).toBeGreaterThanOrEqual(3000);
  }, 120_000);

  it("an image upload whose answer was lost is found by its name (40911, /file/name/check/) on the next attempt, not uploaded twice", async () => {
    tiktok.dropNextAnswer("file/image/ad/upload/");
    const count = tiktok.images.size;
    const lost = await pushed({ name: "tt-lost.png", type: "image/png", bytes: await pngImage(360, 360) });
    expect(lost.upload.status).toBe("completed");
    expect(tiktok.images.size).toBe(count + 1);
    const stored = [...tiktok.images.values()].at(-1)!;
    expect(lost.upload.platform_b.imageId).toBe(stored.image_id);
    expect(calls("file/name/check/").at(-1)!.query.get("file_type")).toBe("IMAGE");
  }, 120_000);

  it("pushes a large video in chunks (start, transfer per chunk with its MD5, finish, bind by file id) and waits until it is displayable", async () => {
    const bytes = mp4Video(480, 480, 3);
    expect(bytes.length).toBeGreaterThan(CHUNK_THRESHOLD);
    video = await pushed({ name: "tt-clip.mp4", type: "video/mp4", bytes });
    expect(video.upload.status).toBe("completed");
    expect(calls("file/start/upload/")[0]!.body).toMatchObject({ advertiser_id: ADVERTISER, size: bytes.length, content_type: "video" });
    const transfers = calls("file/transfer/upload/");
    expect(transfers.length).toBe(Math.ceil(bytes.length / tiktok.chunkSize));
    expect(transfers.map((r) => Number(r.body.start_offset))).toEqual(transfers.map((_, i) => i * tiktok.chunkSize));
    for (const r of transfers) expect(r.body.signature).toBe(r.body.file.md5);
    const bind = calls("file/video/ad/upload/").at(-1)!;
    expect(bind.body).toMatchObject({ advertiser_id: ADVERTISER, upload_type: "UPLOAD_BY_FILE_ID", file_id: expect.any(String) });
    // Polled until TikTok says the video can be used.
    expect(calls("file/video/ad/info/").length).toBeGreaterThanOrEqual(3);
    const [stored] = [...tiktok.videos.values()];
    expect(stored!.signature).toBe(md5(bytes));
    expect(video.upload.platform_b.videoId).toBe(stored!.video_id);
  }, 120_000);

  it("a video above MEDIA_CHUNK_BYTES but under TikTok's chunk upload minimum goes in one /file/video/ad/upload/", async () => {
    const bytes = mp4Video(360, 480, 1);
    expect(bytes.length).toBeGreaterThan(CHUNK);
    expect(bytes.length).toBeLessThanOrEqual(CHUNK_THRESHOLD);
    const starts = calls("file/start/upload/").length;
    const mid = await pushed({ name: "tt-mid.mp4", type: "video/mp4", bytes });
    expect(mid.upload.status).toBe("completed");
    expect(calls("file/start/upload/").length).toBe(starts);
    expect(calls("file/video/ad/upload/").at(-1)!.body).toMatchObject({
      advertiser_id: ADVERTISER,
      upload_type: "UPLOAD_BY_FILE",
      video_signature: md5(bytes),
    });
    const stored = [...tiktok.videos.values()].find((v) => String(v.file_name).endsWith("tt-mid.mp4"))!;
    expect(mid.upload.platform_b.videoId).toBe(stored.video_id);
  }, 120_000);

  // One kill -9 and one restart serve two pushes caught at different points: one video mid chunked push (its second
  // chunk in flight), another already in TikTok's library and processing.
  it("kill -9 during a chunked video push and while TikTok processes another: the restarted push continues the same TikTok upload, resends no finished chunk, and one video is made; the processing one is found in the library, not pushed again", async () => {
    const name = `tt-kill-${Date.now()}.mp4`;
    const bytes = mp4Video(480, 480, 4);
    const chunks = Math.ceil(bytes.length / CHUNK);
    expect(chunks).toBeGreaterThanOrEqual(3);
    const startsBefore = calls("file/start/upload/").length;
    // The second of TikTok's ranges in our second chunk is in flight when the server dies: chunk 0 is recorded, chunk 1 is not.
    const inFlight = CHUNK + tiktok.chunkSize;
    const hold = tiktok.holdNext("file/transfer/upload/", (b) => Number(b.start_offset) === inFlight);
    const [id] = await uploadIds(t.key, [{ name, type: "video/mp4", bytes }], { platform: "platform_b", baseUrl: server.url });
    await hold.arrived;

    // The other video: pushed whole, bound into the library, and kept processing there until after the restart.
    tiktok.videoProcessingPolls = 1_000_000;
    const crashBytes = mp4Video(480, 480, 4);
    const [crashId] = await uploadIds(t.key, [{ name: "tt-crash.mp4", type: "video/mp4", bytes: crashBytes }], { platform: "platform_b", baseUrl: server.url });
    const inLibrary = () => [...tiktok.videos.values()].filter((v) => String(v.file_name).includes("tt-crash"));
    await waitFor("the video bound into the library", async () => inLibrary().length > 0, 60_000);

    await server.kill();
    const killedAt = Date.now();
    hold.release(); // TikTok stores the range in flight; its answer goes nowhere.
    tiktok.videoProcessingPolls = 0;
    server = await startServer({ dataDir: server.dataDir, env: serverEnv() });

    const crashed = await finishedUpload(t.key, crashId!, 120_000, server.url);
    expect(crashed.status).toBe("completed");
    expect(inLibrary()).toHaveLength(1);
    expect(crashed.platform_b.videoId).toBe(inLibrary()[0]!.video_id);
    // Whether the restarted push had recorded the bound video before the kill (then it only polls it) or searches the
    // library for it (a slower kill), it never uploads it again.
    const crashUploads = tiktok.requests.filter(
      (r) =>
        ["file/start/upload/", "file/video/ad/upload/"].some((route) => r.path.endsWith(route)) &&
        Object.values(r.body ?? {}).some((v) => typeof v === "string" && v.includes("tt-crash")),
    );
    expect(crashUploads.length).toBeGreaterThan(0); // the push before the kill
    expect(crashUploads.filter((r) => r.at >= killedAt)).toEqual([]);

    const upload = await finishedUpload(t.key, id!, 120_000, server.url);
    expect(upload.status).toBe("completed");

    // One upload session, finished once, one video bound from it.
    const starts = calls("file/start/upload/")
      .slice(startsBefore)
      .filter((r) => r.body.name === name);
    expect(starts).toHaveLength(1);
    const uploadId = String(
      calls("file/transfer/upload/").find((r) => r.at < killedAt && Number(r.body.start_offset) === inFlight && r.at >= starts[0]!.at)!.body.upload_id,
    );
    const session = tiktok.uploadSessions.get(uploadId)!;
    expect(session.offset).toBe(bytes.length);
    expect(session.transfers).toBe(Math.ceil(bytes.length / tiktok.chunkSize)); // every range stored once
    expect(session.finishes).toBe(1);
    const made = [...tiktok.videos.values()].filter((v) => String(v.file_name).includes(name));
    expect(made).toHaveLength(1);
    expect(made[0]!.signature).toBe(md5(bytes));
    expect(upload.platform_b.videoId).toBe(made[0]!.video_id);

    const transfers = calls("file/transfer/upload/").filter((r) => r.body.upload_id === uploadId);
    const afterRestart = transfers.filter((r) => r.at > killedAt).map((r) => Number(r.body.start_offset));
    // Chunk 0 was acknowledged and recorded: never sent again. Only the chunk in flight (chunk 1) is offered once more, and
    // TikTok refuses the range it already has with the offset it expects, so the push moves on without storing it twice.
    expect(afterRestart[0]).toBe(CHUNK);
    expect(Math.min(...afterRestart)).toBeGreaterThanOrEqual(CHUNK);
    expect(afterRestart.filter((offset) => offset < 2 * CHUNK)).toEqual([CHUNK]);
    expect(session.refused).toBe(1);

    const creative = await waitFor(`creative of ${name}`, async () => (await allCreatives(t.key, server.url)).find((c) => c.fileName === name), 60_000);
    const { pushes } = (await tool("list_creative_pushes", { creativeId: creative.id })).body.result;
    expect(pushes).toEqual([expect.objectContaining({ state: "ready", chunksDone: chunks, chunksTotal: chunks, externalId: made[0]!.video_id })]);
  }, 240_000);

  it("builds a campaign, ad group and ad with TikTok's names; a repeated clientRef makes nothing twice", async () => {
    ({ campaign } = await result("create_campaign", { platform: "platform_b", name: "Spring TikTok", objective: "traffic", clientRef: "spring-tt" }));
    const again = await result("create_campaign", { platform: "platform_b", name: "Spring TikTok", objective: "traffic", clientRef: "spring-tt" });
    expect(again.campaign.id).toBe(campaign.id);
    expect(tiktok.campaigns.size).toBe(1);
    const [c] = [...tiktok.campaigns.values()];
    expect(c).toMatchObject({ campaign_name: "Spring TikTok", objective_type: "TRAFFIC", operation_status: "DISABLE" });
    expect(calls("campaign/create/")[0]!.body.request_id).toMatch(/^\d+$/);

    ({ adSet } = await result("create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_b",
      name: "US group",
      budget: { type: "daily", amountMinor: 6000 },
      locationIds: ["6252001"],
    }));
    const [g] = [...tiktok.adgroups.values()];
    expect(g).toMatchObject({
      campaign_id: c!.campaign_id,
      adgroup_name: "US group",
      location_ids: ["6252001"],
      placement_type: "PLACEMENT_TYPE_NORMAL",
      placements: ["PLACEMENT_TIKTOK"],
      budget_mode: "BUDGET_MODE_DAY",
      budget: 60,
      schedule_type: "SCHEDULE_FROM_NOW",
      optimization_goal: "CLICK",
      billing_event: "CPC",
      operation_status: "DISABLE",
    });
    expect(g!.schedule_start_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const { id: copyVariantId } = await result("create_copy_variant", {
      creativeId: image.creativeId,
      headline: "Fresh",
      primaryText: "Shop the new season today",
      label: "A",
    });
    ({ ad } = await result("create_ad", {
      adSetId: adSet.id,
      creativeId: image.creativeId,
      copyVariantId,
      callToAction: "shop_now",
      landingUrl: "https://example.com/shop",
    }));
    const [made] = [...tiktok.ads.values()];
    expect(made).toMatchObject({
      adgroup_id: g!.adgroup_id,
      identity_type: "CUSTOMIZED_USER",
      identity_id: IDENTITY,
      ad_format: "SINGLE_IMAGE",
      image_ids: [[...tiktok.images.values()][0]!.image_id],
      ad_text: "Shop the new season today",
      call_to_action: "SHOP_NOW",
      landing_page_url: "https://example.com/shop",
      operation_status: "DISABLE",
    });
    expect(ad.externalId ?? made!.ad_id).toBe(made!.ad_id);

    const { id: videoCopy } = await result("create_copy_variant", { creativeId: video.creativeId, headline: "Clip", primaryText: "Watch it move", label: "V" });
    await result("create_ad", {
      adSetId: adSet.id,
      creativeId: video.creativeId,
      copyVariantId: videoCopy,
      callToAction: "learn_more",
      landingUrl: "https://example.com/clip",
    });
    const videoAd = [...tiktok.ads.values()].find((a) => a.ad_format === "SINGLE_VIDEO")!;
    expect(videoAd).toMatchObject({ video_id: [...tiktok.videos.values()][0]!.video_id, call_to_action: "LEARN_MORE" });
  }, 120_000);

  it("launches, changes the budget, pauses and deletes through the status and budget endpoints", async () => {
    await result("activate_ads", { adIds: [ad.id] });
    const [c] = [...tiktok.campaigns.values()];
    const [g] = [...tiktok.adgroups.values()];
    const made = tiktok.ads.get([...tiktok.ads.values()][0]!.ad_id)!;
    expect([c!.operation_status, g!.operation_status, made.operation_status]).toEqual(["ENABLE", "ENABLE", "ENABLE"]);
    expect(calls("ad/status/update/").at(-1)!.body).toMatchObject({ advertiser_id: ADVERTISER, ad_ids: [made.ad_id], operation_status: "ENABLE" });

    const budget = await result("set_ad_set_budget", { id: adSet.id, budget: { type: "daily", amountMinor: 9000 } });
    expect(budget.adSet.budget).toEqual({ type: "daily", amountMinor: 9000 });
    expect(calls("adgroup/budget/update/").at(-1)!.body).toEqual({ advertiser_id: ADVERTISER, budget: [{ adgroup_id: g!.adgroup_id, budget: 90 }] });
    expect(g!.budget).toBe(90);

    await result("update_ad", { id: ad.id, primaryText: "New season, new colours", landingUrl: "https://example.com/new" });
    expect(calls("ad/update/").at(-1)!.body).toMatchObject({
      advertiser_id: ADVERTISER,
      adgroup_id: g!.adgroup_id,
      creatives: [
        expect.objectContaining({ ad_id: made.ad_id, ad_text: "New season, new colours", landing_page_url: "https://example.com/new", identity_id: IDENTITY }),
      ],
    });
    expect(made.ad_text).toBe("New season, new colours");

    await result("pause_ads", { adIds: [ad.id] });
    expect(made.operation_status).toBe("DISABLE");
  }, 60_000);

  it("an ad stays on the advertiser it was made on after another becomes the default: its status, new ad groups, numbers and the rollup", async () => {
    tiktok.grant("tt-second-token", [ADVERTISER_2]);
    const connect = ["adaccount", "connect", "--workspace", t.workspaceId, "--platform", "platform_b", "--account", ADVERTISER_2];
    await admin([...connect, "--token", "tt-second-token", "--identity", "6990000000000000222", "--default", "true"], server.dataDir);
    const first = (await result("list_connected_ad_accounts")).adAccounts.find((a: any) => a.externalAccountId === ADVERTISER);
    expect(first).toMatchObject({ isDefault: false, status: "active" });
    const reportsFrom = (since: number) =>
      calls("report/integrated/get/")
        .slice(since)
        .map((r) => r.query.get("advertiser_id"));
    try {
      const made = tiktok.ads.get(ad.externalId)!;
      await result("activate_ads", { adIds: [ad.id] });
      expect(calls("ad/status/update/").at(-1)!.body).toMatchObject({ advertiser_id: ADVERTISER, ad_ids: [made.ad_id], operation_status: "ENABLE" });
      expect(made.operation_status).toBe("ENABLE");

      await result("create_ad_set", {
        campaignId: campaign.id,
        platform: "platform_b",
        name: "Second group",
        budget: { type: "daily", amountMinor: 6000 },
        locationIds: ["6252001"],
      });
      expect([...tiktok.adgroups.values()].find((g) => g.adgroup_name === "Second group")).toMatchObject({ advertiser_id: ADVERTISER });

      let before = calls("report/integrated/get/").length;
      const listed = (await result("list_ads", { campaignId: campaign.id })).ads.find((a: any) => a.id === ad.id);
      expect(listed.today).toMatchObject({ spendMinor: expect.any(Number) });
      expect(reportsFrom(before)).toEqual([ADVERTISER]);

      before = calls("report/integrated/get/").length;
      await admin(["performance", "rollup", "--workspace", t.workspaceId], server.dataDir);
      expect(new Set(reportsFrom(before))).toEqual(new Set([ADVERTISER, ADVERTISER_2]));

      await result("pause_ads", { adIds: [ad.id] });
      expect(made.operation_status).toBe("DISABLE");
    } finally {
      await result("set_default_ad_account", { id: first.id });
    }
  }, 90_000);

  it("pulls the integrated report (BASIC, AUCTION_AD, ad_id per day) into the rollup", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const made = [...tiktok.ads.values()][0]!;
    const DAY = {
      spend: "12.34",
      impressions: "4000",
      reach: "3000",
      clicks: "52",
      conversion: "3",
      frequency: "1.33",
      complete_payment: "0",
      value_per_complete_payment: "0",
    };
    tiktok.setDelivery(made.ad_id, today, DAY);
    await admin(["performance", "rollup", "--workspace", t.workspaceId], server.dataDir);
    // The daily read (the hourly one follows it: next case).
    const report = calls("report/integrated/get/")
      .filter((r) => !JSON.parse(r.query.get("dimensions")!).includes("stat_time_hour"))
      .at(-1)!;
    expect(Object.fromEntries(report.query)).toMatchObject({ advertiser_id: ADVERTISER, report_type: "BASIC", data_level: "AUCTION_AD" });
    expect(JSON.parse(report.query.get("dimensions")!)).toEqual(["ad_id", "stat_time_day"]);
    expect(JSON.parse(report.query.get("metrics")!)).toEqual(expect.arrayContaining(["spend", "impressions", "clicks", "conversion"]));
    // A long range is read in windows of at most 30 days (TikTok's limit at day granularity), a year back at most.
    const before = calls("report/integrated/get/").length;
    const platformDays = await result("get_ad_insights", { id: ad.id, since: "2000-01-01", until: today });
    expect(platformDays.days.map((d: any) => d.date)).toEqual([today]);
    const windows = calls("report/integrated/get/").slice(before);
    expect(windows.length).toBeGreaterThan(10);
    for (const w of windows) expect((Date.parse(w.query.get("end_date")!) - Date.parse(w.query.get("start_date")!)) / 86_400_000).toBeLessThan(30);
    const stored = await result("get_insights", { level: "ad", ids: [ad.id], breakdown: "day", since: today, until: today });
    expect(stored.rows.map((r: any) => [r.date, r.impressions, r.clicks, Math.round(r.spend * 100), r.conversions])).toEqual([[today, 4000, 52, 1234, 3]]);

    // Spend past 2^31 minor units (a VND or IDR account reaches it within a month; here one USD day stands in) is
    // stored and summed whole: the rollup neither fails nor wraps.
    try {
      tiktok.setDelivery(made.ad_id, today, { ...DAY, spend: "25000000.07", complete_payment: "2", value_per_complete_payment: "15000000.00" });
      await admin(["performance", "rollup", "--workspace", t.workspaceId], server.dataDir);
      const big = await result("get_insights", { level: "ad", ids: [ad.id], breakdown: "day", since: today, until: today });
      expect(big.rows.map((r: any) => [r.spend, r.conversionValue])).toEqual([[25_000_000.07, 30_000_000]]);
      const [creative] = (await result("list_creative_performance", {})).creatives.filter((c: any) => c.creativeId === ad.creativeId);
      expect(creative).toMatchObject({ spend: 25_000_000.07, conversionValue: 30_000_000 });
    } finally {
      tiktok.setDelivery(made.ad_id, today, DAY);
      await admin(["performance", "rollup", "--workspace", t.workspaceId], server.dataDir);
    }
  }, 60_000);

  it("pulls the integrated report by hour (stat_time_hour, one day per query) into hourly rows, one row per ad and hour", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const made = [...tiktok.ads.values()][0]!;
    tiktok.setHourlyDelivery(made.ad_id, today, 7, { spend: "1.50", impressions: "300", clicks: "4", conversion: "0" });
    tiktok.setHourlyDelivery(made.ad_id, today, 8, { spend: "2.25", impressions: "450", clicks: "9", conversion: "1" });
    const hourly = () => calls("report/integrated/get/").filter((r) => JSON.parse(r.query.get("dimensions")!).includes("stat_time_hour"));
    const before = hourly().length;
    await admin(["performance", "rollup", "--workspace", t.workspaceId], server.dataDir);
    await admin(["performance", "rollup", "--workspace", t.workspaceId], server.dataDir); // again: the same hours, not twice
    const asked = hourly().slice(before);
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const r of asked) {
      expect(Object.fromEntries(r.query)).toMatchObject({ advertiser_id: ADVERTISER, report_type: "BASIC", data_level: "AUCTION_AD" });
      expect(JSON.parse(r.query.get("dimensions")!)).toEqual(["ad_id", "stat_time_hour"]);
      expect(r.query.get("start_date")).toBe(r.query.get("end_date"));
      expect(JSON.parse(r.query.get("metrics")!)).not.toContain("reach");
    }
    expect(asked.at(-1)!.query.get("start_date")).toBe(today); // incremental: from the last partial day
    const hours = await result("get_insights", { level: "ad", ids: [ad.id], breakdown: "hour", since: today, until: today });
    expect(hours.rows.map((h: any) => [h.hour, h.impressions, h.clicks, Math.round(h.spend * 100), h.conversions])).toEqual([
      [7, 300, 4, 150, 0],
      [8, 450, 9, 225, 1],
    ]);
  }, 60_000);

  it("pulls comments into moderation; hide and reply reach TikTok; the account's own reply is not a new comment", async () => {
    const made = [...tiktok.ads.values()][0]!;
    const now = Math.floor(Date.now() / 1000);
    const praise = tiktok.addComment(made.ad_id, "Love these colours", { userName: "mia", createTime: now - 60 });
    const scam = tiktok.addComment(made.ad_id, "Total scam, avoid", { userName: "bob", createTime: now - 30 });
    await admin(["moderation", "pull", "--workspace", t.workspaceId], server.dataDir);
    // One list per ad group with ads (an earlier case added a second group to the campaign).
    const list = calls("comment/list/").findLast((r) => r.query.get("search_value") === made.adgroup_id)!;
    expect(Object.fromEntries(list.query)).toMatchObject({ advertiser_id: ADVERTISER, search_field: "ADGROUP_ID", search_value: made.adgroup_id });
    const { comments } = await result("list_ad_comments", {});
    expect(comments.map((c: any) => [c.message, c.state]).sort()).toEqual([
      ["Love these colours", "new"],
      ["Total scam, avoid", "new"],
    ]);
    const inboxScam = comments.find((c: any) => c.message === scam.content);
    const inboxPraise = comments.find((c: any) => c.message === praise.content);

    await result("hide_ad_comments", { ids: [inboxScam.id] });
    expect(tiktok.comments.get(scam.comment_id)!.comment_status).toBe("HIDDEN");
    expect(calls("comment/status/update/").at(-1)!.body).toEqual({ advertiser_id: ADVERTISER, comment_ids: [scam.comment_id], operation: "HIDDEN" });

    await result("reply_to_ad_comment", { id: inboxPraise.id, message: "Thank you!" });
    await result("reply_to_ad_comment", { id: inboxPraise.id, message: "Thank you!" });
    const replies = [...tiktok.comments.values()].filter((c) => c.comment_type === "REPLY");
    expect(replies).toHaveLength(1);
    expect(calls("comment/post/").at(-1)!.body).toMatchObject({
      advertiser_id: ADVERTISER,
      ad_id: made.ad_id,
      tiktok_item_id: made.tiktok_item_id,
      comment_id: praise.comment_id,
      comment_type: "REPLY",
      identity_type: "CUSTOMIZED_USER",
      identity_id: IDENTITY,
      text: "Thank you!",
    });
    await admin(["moderation", "pull", "--workspace", t.workspaceId], server.dataDir);
    const after = (await result("list_ad_comments", {})).comments;
    expect(after.map((c: any) => [c.message, c.state]).sort()).toEqual([
      ["Love these colours", "replied"],
      ["Total scam, avoid", "hidden"],
    ]);

    // TikTok's /comment/delete/ removes only the advertiser's own comments: a viewer's is refused before any call, and stays.
    const deletes = calls("comment/delete/").length;
    const { results } = await result("delete_ad_comments", { ids: [inboxScam.id] });
    expect(results).toEqual([
      { id: inboxScam.id, ok: false, error: { code: "invalid_input", message: expect.stringMatching(/only the advertiser's own comments.*hide it instead/) } },
    ]);
    expect(calls("comment/delete/").length).toBe(deletes);
    expect(tiktok.comments.has(scam.comment_id)).toBe(true);
  }, 60_000);

  it("a comment its author deleted on TikTok is deleted from the inbox (not refused for ever); its hide, answered 40007, is refused saying so", async () => {
    const made = [...tiktok.ads.values()][0]!;
    // Written now: after the account's reply above, where the pull's position is.
    const gone = tiktok.addComment(made.ad_id, "Deleted by its author", { userName: "zoe" });
    const alsoGone = tiktok.addComment(made.ad_id, "Also deleted by its author", { userName: "zed" });
    await admin(["moderation", "pull", "--workspace", t.workspaceId], server.dataDir);
    const rows = (await result("list_ad_comments", { search: "deleted by its author" })).comments;
    const [goneRow, alsoGoneRow] = [gone, alsoGone].map((c) => rows.find((r: any) => r.externalId === c.comment_id));
    for (const c of [gone, alsoGone]) tiktok.authorDeletes(c.comment_id);

    // TikTok no longer lists it: the delete asked for it gone, and it is; recorded as any delete.
    const deletes = calls("comment/delete/").length;
    const deleted = await result("delete_ad_comments", { ids: [goneRow.id] });
    expect(deleted.results).toEqual([{ id: goneRow.id, ok: true, comment: expect.objectContaining({ state: "deleted" }) }]);
    expect(calls("comment/delete/").length).toBe(deletes);
    const { comment, audit } = await result("get_ad_comment_audit", { id: goneRow.id });
    expect(comment.state).toBe("deleted");
    expect(audit).toEqual([expect.objectContaining({ action: "delete", actor: expect.objectContaining({ kind: "user", apiKeyId: t.keyId }) })]);

    // A hide cannot be done: TikTok answers the documented request with 40007 NOT_EXIST, refused saying what to do instead.
    const hides = calls("comment/status/update/").length;
    const hidden = await result("hide_ad_comments", { ids: [alsoGoneRow.id] });
    expect(hidden.results).toEqual([
      {
        id: alsoGoneRow.id,
        ok: false,
        error: { code: "invalid_input", message: expect.stringContaining(`platform_b no longer has comment ${alsoGone.comment_id}`) },
      },
    ]);
    expect(hidden.results[0].error.message).toContain("delete it from the inbox");
    expect(
      calls("comment/status/update/")
        .slice(hides)
        .map((r) => r.body),
    ).toEqual([{ advertiser_id: ADVERTISER, comment_ids: [alsoGone.comment_id], operation: "HIDDEN" }]);
    expect((await result("get_ad_comment_audit", { id: alsoGoneRow.id })).comment.state).toBe("new");
    // Nor a reply: refused the same way, before anything is posted.
    const posts = calls("comment/post/").length;
    const reply = await tool("reply_to_ad_comment", { id: alsoGoneRow.id, message: "Thanks!" });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining(
        `platform_b no longer has comment ${alsoGone.comment_id} (deleted by its author or on TikTok), so it cannot be replied to`,
      ),
    });
    expect(calls("comment/post/").length).toBe(posts);
    expect((await result("delete_ad_comments", { ids: [alsoGoneRow.id] })).results[0]).toMatchObject({ ok: true, comment: { state: "deleted" } });
  }, 60_000);

  it("an ad group with over 5,000 comments in one day is pulled to its last comment, poll by poll, each poll skipping the pages pulled before (O(log pages) list requests); a hide finds a comment past the first 5,000 alike", async () => {
    const made = [...tiktok.ads.values()][0]!;
    // A viral day: 5,100 comments in the same second, after everything pulled so far (TikTok lists whole days only).
    const now = Math.floor(Date.now() / 1000);
    const burst = Array.from({ length: 5_100 }, (_, i) => tiktok.addComment(made.ad_id, `Viral comment ${i}`, { userName: `fan${i}`, createTime: now }));
    const lists = () => calls("comment/list/").filter((r) => r.query.get("search_value") === made.adgroup_id);
    const pages = () => Math.ceil([...tiktok.comments.values()].filter((c) => c.adgroup_id === made.adgroup_id).length / 100);
    // Page 1 (for total_page), the halving over the pages, the page before the first new comment, and the pages read on.
    const searched = (pagesRead: number) => 1 + Math.ceil(Math.log2(pages())) + 1 + pagesRead;
    const pull = async () => {
      const before = lists().length;
      const summary = await admin<{ accounts: { added: number; fetched: number }[] }>(["moderation", "pull", "--workspace", t.workspaceId], server.dataDir);
      return {
        added: summary.accounts.reduce((n, acc) => n + acc.added, 0),
        fetched: summary.accounts.reduce((n, acc) => n + acc.fetched, 0),
        requests: lists().length - before,
      };
    };
    let added = 0;
    let fetched = 0;
    const requests: number[] = [];
    for (let poll = 0; poll < 20; poll++) {
      const polled = await pull();
      requests.push(polled.requests);
      if (!polled.added) break;
      added += polled.added;
      fetched += polled.fetched;
    }
    // Each comment once: none missed, none taken by two polls.
    expect(added).toBe(burst.length);
    expect(fetched).toBe(burst.length);
    // A poll takes 500 comments: at most 6 pages past the search, where reading from page 1 grew to all 52 pages.
    expect(Math.max(...requests)).toBeLessThanOrEqual(searched(6));

    const [last] = (await result("list_ad_comments", { search: "Viral comment 5099" })).comments;
    expect(last.externalId).toBe(burst.at(-1)!.comment_id);
    const beforeHide = lists().length;
    await result("hide_ad_comments", { ids: [last.id] });
    expect(tiktok.comments.get(burst.at(-1)!.comment_id)!.comment_status).toBe("HIDDEN");
    expect(lists().length - beforeHide).toBeLessThanOrEqual(searched(1));

    // The day goes on: the next poll reads O(log pages) pages for the new comments, not the 5,100 before them again.
    const later = ["Still viral", "Where can I buy it?", "Shipping to Spain?"].map((m) => tiktok.addComment(made.ad_id, m, { userName: "late" }));
    const next = await pull();
    expect(next).toMatchObject({ added: later.length, fetched: later.length });
    expect(next.requests).toBeLessThanOrEqual(searched(1));

    // Comments deleted while a poll reads move the later ones to earlier pages: the read starts a page before the first
    // new comment's, so the new comments shifted there are not skipped. The deletes land just before the read goes on
    // from the page the search found (the first page asked for twice).
    const shifted = Array.from({ length: 30 }, (_, i) => tiktok.addComment(made.ad_id, `After the deletes ${i}`, { userName: `shift${i}` }));
    const asked = new Set<number>();
    const readOn = tiktok.holdNext("comment/list/", (body) => {
      if (body.search_value !== made.adgroup_id) return false;
      const page = Number(body.page);
      if (asked.has(page)) return true;
      asked.add(page);
      return false;
    });
    const polling = pull();
    await Promise.race([readOn.arrived, polling]);
    for (const c of burst.slice(0, 100)) tiktok.authorDeletes(c.comment_id);
    readOn.release();
    expect(await polling).toMatchObject({ added: shifted.length, fetched: shifted.length });
    const inbox = (await result("list_ad_comments", { search: "After the deletes" })).comments;
    expect(inbox.map((c: any) => c.externalId).sort()).toEqual(shifted.map((c) => c.comment_id).sort());
  }, 180_000);

  it("a comment deleted on TikTok between two pages of one poll's read: the comment that moves onto the page already read still reaches the inbox", async () => {
    const made = [...tiktok.ads.values()][0]!;
    const inGroup = () => [...tiktok.comments.values()].filter((c) => c.adgroup_id === made.adgroup_id);
    // Every comment in the group is pulled already; the new ones are its newest, the first at position `before`.
    const before = inGroup().length;
    const fresh = Array.from({ length: 150 }, (_, i) => tiktok.addComment(made.ad_id, `Read across a delete #${i}#`, { userName: `across${i}` }));
    // The read goes on from the page holding the first new comment (the search read it once); the next page starts with a new one.
    const firstNew = Math.floor(before / 100) + 1;
    const movesBack = fresh[100 * firstNew - before]!;
    const older = inGroup().find((c) => c.content.startsWith("Viral comment"))!;
    const asks = (page: number) =>
      calls("comment/list/").filter((r) => r.query.get("search_value") === made.adgroup_id && r.query.get("page") === String(page)).length;
    const asked = { before: asks(firstNew), after: asks(firstNew + 1) };
    // Once the read has that page, an older comment is deleted: the first comment of the next page moves onto it.
    let served = 0;
    tiktok.afterNext(
      "comment/list/",
      (body) => body.search_value === made.adgroup_id && Number(body.page) === firstNew && ++served === 2,
      () => tiktok.authorDeletes(older.comment_id),
    );
    const summary = await admin<{ accounts: { added: number }[] }>(["moderation", "pull", "--workspace", t.workspaceId], server.dataDir);
    expect(tiktok.comments.has(older.comment_id)).toBe(false);
    expect(summary.accounts.reduce((n, acc) => n + acc.added, 0)).toBe(fresh.length);
    const [moved] = (await result("list_ad_comments", { search: movesBack.content })).comments;
    expect(moved?.externalId).toBe(movesBack.comment_id);
    // total_number fell by one between the two pages: the read steps back to the page it had (one request more) and goes on
    // with the page it then has, not asking for it again.
    expect({ before: asks(firstNew) - asked.before, after: asks(firstNew + 1) - asked.after }).toEqual({ before: 3, after: 1 });
  }, 60_000);

  it("maps TikTok's codes: 40100 -> upstream_busy, 40002 -> invalid_input with TikTok's message, 5xxxx -> upstream_error", async () => {
    tiktok.throttle(1);
    const busy = await tool("get_ad_account", { platform: "platform_b" });
    expect(busy.status).toBe(503);
    expect(busy.body.error).toMatchObject({ code: "upstream_busy", message: expect.stringMatching(/too frequently.*40100/) });

    tiktok.failNext("adgroup/update/", 40002, "adgroup_name: Length must be between 1 and 512.");
    const invalid = await tool("update_ad_set", { id: adSet.id, name: "Renamed" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("adgroup_name: Length must be between 1 and 512. (code 40002)"),
    });

    tiktok.failNext("campaign/update/", 50002, "System busy, please retry.");
    const failed = await tool("update_campaign", { id: campaign.id, name: "Summer" });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("upstream_error");

    expect((await result("update_campaign", { id: campaign.id, name: "Summer" })).campaign.name).toBe("Summer");
    expect([...tiktok.campaigns.values()][0]!.campaign_name).toBe("Summer");
  }, 60_000);

  it("deletes a campaign with operation_status DELETE", async () => {
    expect(await result("delete_campaign", { id: campaign.id })).toEqual({ ok: true });
    expect([...tiktok.campaigns.values()][0]!.secondary_status).toMatch(/DELETE/);
    expect(calls("campaign/status/update/").at(-1)!.body).toMatchObject({ operation_status: "DELETE" });
  }, 60_000);

  it("searches places by name through /tool/targeting/search/ (FUZZY_SEARCH, geo types) and targets an ad group by the ids found, shown by name", async () => {
    const found = await result("search_locations", { platform: "platform_b", query: "mun", types: ["region", "city"] });
    expect(found.locations).toEqual([{ id: "2867714", type: "city", name: "Munich", countryCode: "DE", regionName: null, platform: "platform_b" }]);
    expect(calls("tool/targeting/search/").at(-1)!.body).toEqual({
      advertiser_id: ADVERTISER,
      objective_type: "REACH",
      placements: ["PLACEMENT_TIKTOK"],
      search_type: "FUZZY_SEARCH",
      keywords: ["mun"],
      geo_types: ["PROVINCE", "CITY"],
    });
    // A tag TikTok marks DISABLED cannot be targeted: it is not offered.
    expect((await result("search_locations", { platform: "platform_b", query: "Kyiv" })).locations).toEqual([]);
    const [bavaria] = (await result("search_locations", { platform: "platform_b", query: "Bavaria" })).locations;
    expect(bavaria).toMatchObject({ id: "2951839", type: "region" });

    const { campaign: c } = await result("create_campaign", { platform: "platform_b", name: "Munich TikTok", objective: "traffic" });
    const { adSet: g } = await result("create_ad_set", {
      campaignId: c.id,
      platform: "platform_b",
      name: "Bavaria group",
      budget: { type: "daily", amountMinor: 6000 },
      locationIds: [bavaria.id, "2867714"],
    });
    expect(tiktok.adgroups.get(g.externalId)).toMatchObject({ location_ids: [bavaria.id, "2867714"] });
    expect(g.locationNames).toEqual({ [bavaria.id]: "Bavaria", "2867714": "Munich" });
  }, 60_000);

  it("connects by TikTok's advertiser authorization (auth_code for a token and advertiser_ids) and publishes as the advertiser's custom identity", async () => {
    const email = `tt-oauth-${Date.now()}@example.com`;
    const { workspaceId, ownerUserId } = await admin<any>(["workspace", "create", "--name", "TT OAuth", "--owner-email", email], server.dataDir);
    await admin(["user", "password", "--email", email, "--password", "a long enough password"], server.dataDir);
    const { jar, signedIn } = await signIn(email, "a long enough password", "", server.url);
    expect(signedIn).toBe(true);
    const get = async (p: string) => {
      const res = await fetch(server.url + p, { headers: { Cookie: cookieHeader(jar) }, redirect: "manual" });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";");
        const i = pair!.indexOf("=");
        jar.set(pair!.slice(0, i).trim(), pair!.slice(i + 1));
      }
      return new URL(res.headers.get("location") ?? "", server.url);
    };
    const start = await get("/api/ad-accounts/oauth/platform_b/start");
    expect(start.searchParams.get("app_id")).toBe("tt-app-1");
    const back = await get(`/api/ad-accounts/oauth/platform_b/callback?auth_code=tt-code-1&state=${start.searchParams.get("state")}`);
    expect(back.searchParams.get("connected")).toBe("1");
    expect(calls("oauth2/access_token/").at(-1)!.body).toEqual({ app_id: "tt-app-1", secret: "tt-secret-1", auth_code: "tt-code-1" });

    const { key } = await admin<any>(["key", "create", "--workspace", workspaceId, "--user", ownerUserId], server.dataDir);
    const other = { workspaceId, ownerUserId, key, keyId: "" } as Tenant;
    const mine = t;
    t = other;
    try {
      const { adAccounts } = await result("list_connected_ad_accounts");
      expect(adAccounts).toEqual([
        expect.objectContaining({ platform: "platform_b", externalAccountId: ADVERTISER_2, mode: "live", status: "active", isDefault: true }),
      ]);
      const img = await pushed({ name: "tt-eu.png", type: "image/png", bytes: await pngImage(420, 420) });
      const { campaign: c2 } = await result("create_campaign", { platform: "platform_b", name: "EU", objective: "awareness" });
      const { adSet: g2 } = await result("create_ad_set", {
        campaignId: c2.id,
        platform: "platform_b",
        name: "FR",
        budget: { type: "daily", amountMinor: 5000 },
        locationIds: ["3017382"],
      });
      const { id: copy } = await result("create_copy_variant", {
        creativeId: img.creativeId,
        headline: "Bonjour",
        primaryText: "Nouvelle saison",
        label: "FR",
      });
      await result("create_ad", {
        adSetId: g2.id,
        creativeId: img.creativeId,
        copyVariantId: copy,
        callToAction: "learn_more",
        landingUrl: "https://example.com/fr",
      });
      const made = [...tiktok.ads.values()].find((a) => a.advertiser_id === ADVERTISER_2)!;
      expect(made).toMatchObject({ identity_type: "CUSTOMIZED_USER", identity_id: "6990000000000000222" });
      expect([...tiktok.adgroups.values()].find((g) => g.advertiser_id === ADVERTISER_2)).toMatchObject({
        optimization_goal: "REACH",
        billing_event: "CPM",
        budget: 50,
      });
      expect(calls("file/image/ad/upload/").at(-1)!.headers["access-token"]).toBe("tt-oauth-token");
    } finally {
      t = mine;
    }
  }, 120_000);

  it("a token TikTok refuses (40105): the account needs reconnecting and the next call answers not_connected without calling TikTok", async () => {
    tiktok.revoke(TOKEN);
    const refused = await tool("get_ad_account", { platform: "platform_b" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "not_connected", message: expect.stringMatching(/needs to be reconnected.*40105/) });
    const before = tiktok.requests.length;
    const next = await tool("list_audiences", { platform: "platform_b" });
    expect(next.body.error.code).toBe("not_connected");
    expect(tiktok.requests.length).toBe(before);
    const listed = (await result("list_connected_ad_accounts")).adAccounts.find((a: any) => a.platform === "platform_b");
    expect(listed).toMatchObject({ status: "needs_reconnect", statusReason: expect.stringMatching(/40105/) });
    // The stored ads (this workspace's were deleted with their campaign) stay listed, without numbers until the account is reconnected.
    const ads = (await result("list_ads", { platform: "platform_b", status: "deleted" })).ads;
    expect(ads.length).toBeGreaterThan(0);
    expect(ads.every((a: any) => a.today === null && a.last7Days === null)).toBe(true);
    expect(tiktok.requests.length).toBe(before);
  }, 60_000);
});
