/**
 * An ad asked for on an account where its creative (a video larger than MEDIA_CHUNK_BYTES) is not yet
 * present: the call answers the pending build, and the ad-build job sends the video in chunks, waits
 * for the platform's processing, then builds the ad. Through HTTP, on the sandbox and on the Graph API fake.
 */
import { afterAll, describe, expect, it } from "vitest";
import { admin, createTenant } from "../helpers/fixtures";
import { fakeMeta, type FakeMeta } from "../helpers/fake-meta";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { mp4Video } from "../helpers/media-fixtures";
import { startServer, tempDataDir, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";

const servers: TestServer[] = [];
let meta: FakeMeta | undefined;
afterAll(async () => {
  for (const s of servers) await s.kill();
  await meta?.close();
});

function toolsOf(key: string, server: TestServer) {
  return async (name: string, args: unknown = {}): Promise<any> => {
    const res = await callTool(key, name, args, {}, server.url);
    if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.result;
  };
}

async function videoCreative(key: string, server: TestServer, platform: "platform_a" | "platform_b", name: string, bytes: Buffer): Promise<string> {
  const [id] = await uploadIds(key, [{ name, type: "video/mp4", bytes }], { platform, baseUrl: server.url });
  const upload = await finishedUpload(key, id!, 120_000, server.url);
  if (upload.status !== "completed") throw new Error(`upload ended ${upload.status}: ${upload.error}`);
  const creative = await waitFor("the video's creative", async () => (await allCreatives(key, server.url)).find((c) => c.fileName === name), 60_000);
  await creativeWhen(key, creative.id, (c) => c.status === "ready", 60_000, server.url);
  return creative.id;
}

describe("building an ad waits for a large video inside the job (sandbox)", () => {
  it("create_ad answers the pending build; the job pushes the chunks, waits for processing and builds; a second build waits for the same push", async () => {
    const CHUNK = 16 * 1024;
    const dataDir = tempDataDir("ad-build-sandbox");
    const server = await startServer({ dataDir, env: { MEDIA_CHUNK_BYTES: String(CHUNK), PLATFORM_RETRY_DELAYS_MS: "1000" } });
    servers.push(server);
    const t = await createTenant({ dataDir });
    const ok = toolsOf(t.key, server);
    const video = mp4Video(640, 360, 2);
    const chunks = Math.ceil(video.length / CHUNK);
    expect(chunks).toBeGreaterThan(1);
    const creativeId = await videoCreative(t.key, server, "platform_a", "launch.mp4", video);
    const copy = await ok("create_copy_variant", { creativeId, headline: "New in", primaryText: "Watch the launch", label: "launch" });

    const { campaign } = await ok("create_campaign", { platform: "platform_b", name: "Video launch", objective: "traffic" });
    const make = (name: string) =>
      ok("create_ad_set", { campaignId: campaign.id, platform: "platform_b", name, budget: { type: "daily", amountMinor: 6000 }, locationIds: ["6252001"] });
    const { adSet } = await make("Group one");
    const { adSet: second } = await make("Group two");
    const args = { adSetId: adSet.id, creativeId, copyVariantId: copy.id, callToAction: "learn_more", landingUrl: "https://example.com/launch" };

    const first = await ok("create_ad", args);
    expect(first.ad).toBeNull();
    expect(first.created).toBe(false);
    expect(first.build).toMatchObject({ state: "waiting_for_media", adSetId: adSet.id, creativeId, copyVariantId: copy.id, adId: null });
    // Asking again while it waits answers the same build.
    expect((await ok("create_ad", args)).build.id).toBe(first.build.id);

    // The bulk builder on another ad group: same creative, same account, so it waits for the same push.
    const bulk = await ok("build_ads_from_library", {
      adSetId: second.id,
      creativeIds: [creativeId],
      copyVariantIds: [copy.id],
      callToAction: "learn_more",
      landingUrl: "https://example.com/launch",
    });
    expect(bulk).toMatchObject({ created: 0, failed: 0, pending: 1 });
    expect(bulk.ads[0]).toMatchObject({ adId: null, build: { state: "waiting_for_media", pushId: first.build.pushId } });

    const built = await waitFor("the ad built by the job", async () => (await ok("create_ad", args)).ad, 90_000);
    expect(built).toMatchObject({ creativeId, copyVariantId: copy.id, platform: "platform_b", primaryText: "Watch the launch", status: "paused" });
    // The bulk build waits on a push another job runs: the push's settling wakes it, so its ad follows at once
    // rather than at its next look (1, 2, 4, 8 … s apart; it came about 4 s after the first one when it only looked).
    const bulkAd = await waitFor("the bulk ad, woken by the push", async () => (await ok("list_ads", { adSetId: second.id, limit: 10 })).ads[0], 3_000, 50);
    expect(bulkAd.creativeId).toBe(creativeId);

    const { pushes } = await ok("list_creative_pushes", { creativeId });
    expect(pushes).toHaveLength(2);
    const pushB = pushes.find((p: any) => p.platform === "platform_b");
    expect(pushB).toMatchObject({ id: first.build.pushId, state: "ready", chunksTotal: chunks, chunksDone: chunks });
    // One platform session, every chunk accepted once.
    const { sessions } = await admin<any>(["sandbox", "media", "--workspace", t.workspaceId], dataDir);
    const onB = sessions.filter((s: any) => s.platform === "platform_b");
    expect(onB).toEqual([
      expect.objectContaining({ fileName: "launch.mp4", chunksAccepted: chunks, chunksRepeated: 0, finished: true, videoId: pushB.externalId }),
    ]);
    // Building again answers the ad; nothing is pushed again.
    expect(await ok("create_ad", args)).toMatchObject({ ad: { id: built.id }, build: null, created: false });
  }, 300_000);
});

describe("building an ad waits for a large video inside the job (Meta fake)", () => {
  it("the job sends the video to the second Meta account with the resumable phases, waits for processing, then builds the ad", async () => {
    const CHUNK = 32 * 1024;
    const TOKEN = "meta-token-build";
    meta = await fakeMeta({
      version: "v24.0",
      appId: "meta-app-1",
      appSecret: "meta-secret",
      accounts: {
        act_700000001: { name: "Acme US", currency: "USD", timezone_name: "America/New_York", account_status: 1 },
        act_700000002: { name: "Acme EU", currency: "EUR", timezone_name: "Europe/Berlin", account_status: 1 },
      },
      pages: { "2000001": { name: "Acme" } },
      oauth: { code: "unused", token: "unused", accountIds: [], pageIds: [] },
      videoChunkBytes: 16 * 1024,
    });
    meta.grant(TOKEN, ["act_700000001", "act_700000002"], ["2000001"]);
    const dataDir = tempDataDir("ad-build-meta");
    const server = await startServer({
      dataDir,
      env: {
        PLATFORMS_MODE: "live",
        PLATFORM_A_API_URL: meta.url,
        PLATFORM_A_API_VERSION: "v24.0",
        PLATFORM_A_APP_ID: "meta-app-1",
        PLATFORM_A_APP_SECRET: "meta-secret",
        PLATFORM_RETRY_DELAYS_MS: "200,200",
        MEDIA_CHUNK_BYTES: String(CHUNK),
        LEADS_POLL: "0",
      },
    });
    servers.push(server);
    const t = await createTenant({ dataDir });
    const ok = toolsOf(t.key, server);
    const connect = (account: string) =>
      admin(
        [
          "adaccount",
          "connect",
          "--workspace",
          t.workspaceId,
          "--platform",
          "platform_a",
          "--account",
          account,
          "--token",
          TOKEN,
          "--page",
          "2000001",
          "--default",
          "true",
        ],
        dataDir,
      );
    await connect("act_700000001");
    const video = mp4Video(480, 480, 3);
    expect(video.length).toBeGreaterThan(CHUNK);
    const creativeId = await videoCreative(t.key, server, "platform_a", "teaser.mp4", video);
    const copy = await ok("create_copy_variant", { creativeId, headline: "Teaser", primaryText: "Coming soon", label: "teaser" });

    // The EU account becomes the default: the video is not there yet.
    await connect("act_700000002");
    const { campaign } = await ok("create_campaign", { platform: "platform_a", name: "EU teaser", objective: "traffic" });
    const { adSet } = await ok("create_ad_set", {
      campaignId: campaign.id,
      platform: "platform_a",
      name: "DE",
      budget: { type: "daily", amountMinor: 5000 },
      targetCountries: ["DE"],
    });
    const args = { adSetId: adSet.id, creativeId, copyVariantId: copy.id, callToAction: "learn_more", landingUrl: "https://example.com/teaser" };
    const pending = await ok("create_ad", args);
    expect(pending).toMatchObject({ ad: null, created: false, build: { state: "waiting_for_media" } });

    const ad = await waitFor("the ad built by the job", async () => (await ok("create_ad", args)).ad, 120_000);
    expect(ad).toMatchObject({ creativeId, headline: "Teaser", primaryText: "Coming soon", status: "paused" });

    const onEu = meta.requests.filter((r) => r.method === "POST" && r.path.endsWith("/act_700000002/advideos"));
    const phases = onEu.map((r) => r.params.upload_phase);
    expect(phases.filter((p) => p === "start")).toHaveLength(1);
    expect(phases.filter((p) => p === "finish")).toHaveLength(1);
    expect(phases.filter((p) => p === "transfer")).toHaveLength(Math.ceil(video.length / (16 * 1024)));
    const transfers = onEu.filter((r) => r.params.upload_phase === "transfer");
    expect(Buffer.concat(transfers.map((r) => r.file!)).equals(video)).toBe(true);

    const { pushes } = await ok("list_creative_pushes", { creativeId });
    const euPush = pushes.find((p: any) => p.id === pending.build.pushId);
    expect(euPush).toMatchObject({ state: "ready", chunksTotal: Math.ceil(video.length / CHUNK), chunksDone: Math.ceil(video.length / CHUNK) });
    expect(meta.objects.get(euPush.externalId)?.kind).toBe("video");
    // The ad's creative on Meta uses the EU account's video.
    const creatives = [...meta.objects.values()].filter((o) => o.kind === "adcreative" && o.account_id === "act_700000002");
    expect(creatives.map((o) => o.object_story_spec?.video_data?.video_id)).toEqual([euPush.externalId]);
    expect([...meta.objects.values()].filter((o) => o.kind === "ad" && o.account_id === "act_700000002")).toHaveLength(1);
  }, 300_000);
});
