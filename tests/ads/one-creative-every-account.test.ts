import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { admin, createTenant } from "../helpers/fixtures";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { mp4Video, pngImage } from "../helpers/media-fixtures";
import { startServer, tempDataDir, type TestServer } from "../helpers/server";
import { callTool, toolResult } from "../tools/helpers";
import { adCopy, adCreatives, campaignWithAdSet } from "./helpers";

async function accountsOf(key: string, baseUrl?: string): Promise<Record<string, string>> {
  const { adAccounts } = await (baseUrl
    ? callTool(key, "list_connected_ad_accounts", {}, {}, baseUrl).then((r) => r.body.result)
    : toolResult(key, "list_connected_ad_accounts", {}));
  return Object.fromEntries(adAccounts.filter((a: any) => a.isDefault).map((a: any) => [a.platform, a.id]));
}

describe("one creative, every ad account", () => {
  it("a creative uploaded to platform_a is built into a platform_b ad with no re-upload: one creative, its copy, one push per account", async () => {
    const t = await createTenant();
    const [{ creativeId, fileName }] = await adCreatives(t.key, { platform: "platform_a" });
    const copyVariantId = await adCopy(t.key, creativeId!, "Fresh picks", "Shop the new season today");
    const accounts = await accountsOf(t.key);

    // The upload's own push is recorded on the platform_a default account.
    const before = (await toolResult(t.key, "list_creative_pushes", { creativeId })).pushes;
    expect(before).toEqual([
      expect.objectContaining({
        adAccountId: accounts.platform_a,
        platform: "platform_a",
        state: "ready",
        externalId: expect.stringMatching(/^[0-9a-f]{32}$/),
      }),
    ]);

    const { adSet } = await campaignWithAdSet(t.key, "platform_b");
    const dry = await toolResult(t.key, "build_ads_from_library", {
      adSetId: adSet.id,
      creativeIds: [creativeId],
      copyVariantIds: [copyVariantId],
      callToAction: "shop_now",
      landingUrl: "https://example.com/b",
      dryRun: true,
    });
    expect(dry.ads[0].problems).toEqual([]); // the picker no longer lists then fails

    const built = await toolResult(t.key, "build_ads_from_library", {
      adSetId: adSet.id,
      creativeIds: [creativeId],
      copyVariantIds: [copyVariantId],
      callToAction: "shop_now",
      landingUrl: "https://example.com/b",
    });
    expect(built).toMatchObject({ created: 1, failed: 0 });
    const { ad } = await toolResult(t.key, "get_ad", { id: built.ads[0].adId });
    expect(ad).toMatchObject({ creativeId, copyVariantId, platform: "platform_b", headline: "Fresh picks", primaryText: "Shop the new season today" });

    const pushes = (await toolResult(t.key, "list_creative_pushes", { creativeId })).pushes;
    expect(pushes).toHaveLength(2);
    expect(pushes[1]).toMatchObject({
      adAccountId: accounts.platform_b,
      platform: "platform_b",
      state: "ready",
      externalId: expect.stringMatching(/^\d+$/),
      creativeId,
    });

    // Building again (and sending explicitly) pushes nothing new; the library still holds one creative.
    const again = await toolResult(t.key, "build_ads_from_library", {
      adSetId: adSet.id,
      creativeIds: [creativeId],
      copyVariantIds: [copyVariantId],
      callToAction: "shop_now",
      landingUrl: "https://example.com/b",
    });
    expect(again).toMatchObject({ created: 0, existing: 1 });
    const sent = await toolResult(t.key, "send_creative_to_ad_account", { creativeId, adAccountId: accounts.platform_b });
    expect(sent).toMatchObject({ sent: false, push: { id: pushes[1].id, state: "ready" } });
    expect((await toolResult(t.key, "list_creative_pushes", { creativeId })).pushes).toHaveLength(2);
    expect((await allCreatives(t.key)).filter((c) => c.fileName === fileName)).toHaveLength(1);
  }, 180_000);

  it("an ad made after a new version shows the new version: the creative's push to the account is made again with its file", async () => {
    const t = await createTenant();
    const [{ creativeId }] = await adCreatives(t.key);
    const [before] = (await toolResult(t.key, "list_creative_pushes", { creativeId })).pushes;
    expect(before).toMatchObject({ state: "ready", externalId: expect.any(String) });
    const v2 = await pngImage(500, 300);
    await toolResult(t.key, "add_creative_version", { creativeId, file: { fileName: "hero-v2.png", contentBase64: v2.toString("base64") } });
    const copyVariantId = await adCopy(t.key, creativeId);
    const { adSet } = await campaignWithAdSet(t.key);
    await toolResult(t.key, "create_ad", { adSetId: adSet.id, creativeId, copyVariantId, callToAction: "shop_now", landingUrl: "https://example.com/shop" });
    const pushes = (await toolResult(t.key, "list_creative_pushes", { creativeId })).pushes;
    expect(pushes).toHaveLength(1);
    // The sandbox's platform_a image hash is the file's MD5, as Meta's is.
    expect(pushes[0]).toMatchObject({ id: before.id, state: "ready", externalId: createHash("md5").update(v2).digest("hex") });
    expect(pushes[0].externalId).not.toBe(before.externalId);
  }, 120_000);

  it("send_creative_to_ad_account pushes in the background; bad ids, another workspace's creative", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const [{ creativeId }] = await adCreatives(t.key, { platform: "platform_b" });
    const accounts = await accountsOf(t.key);
    const { push, sent } = await toolResult(t.key, "send_creative_to_ad_account", { creativeId, adAccountId: accounts.platform_a });
    expect(sent).toBe(true);
    expect(push).toMatchObject({ platform: "platform_a", adAccountId: accounts.platform_a });
    const ready = await waitFor(
      "the push to platform_a",
      async () => {
        const { pushes } = await toolResult(t.key, "list_creative_pushes", { creativeId });
        return pushes.find((p: any) => p.id === push.id && p.state === "ready");
      },
      60_000,
    );
    expect(ready.externalId).toMatch(/^[0-9a-f]{32}$/);

    const unknownAccount = await callTool(t.key, "send_creative_to_ad_account", { creativeId, adAccountId: "adacct_nope" });
    expect(unknownAccount.status).toBe(404);
    const otherAccounts = await accountsOf(other.key);
    const foreignAccount = await callTool(t.key, "send_creative_to_ad_account", { creativeId, adAccountId: otherAccounts.platform_a });
    expect(foreignAccount.status).toBe(404);
    const foreignCreative = await callTool(other.key, "send_creative_to_ad_account", { creativeId, adAccountId: otherAccounts.platform_a });
    expect(foreignCreative.status).toBe(404);
    expect(foreignCreative.body.error.code).toBe("not_found");
    const missing = await callTool(t.key, "send_creative_to_ad_account", { creativeId });
    expect(missing.status).toBe(400);
    expect((await callTool(other.key, "list_creative_pushes", { creativeId })).status).toBe(404);
  }, 180_000);
});

describe("chunked pushes (small chunks)", () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill();
  });

  it("a video bigger than a chunk goes in chunks to every account; processing failure fails with the platform's reason", async () => {
    const dataDir = tempDataDir("chunked-pushes");
    const server = await startServer({ dataDir, env: { MEDIA_CHUNK_BYTES: "16384", PLATFORM_RETRY_DELAYS_MS: "1000" } });
    servers.push(server);
    const t = await createTenant({ dataDir });
    const video = mp4Video(640, 360, 2);
    expect(video.length).toBeGreaterThan(2 * 16384);
    const chunks = Math.ceil(video.length / 16384);

    const [okId, badId] = await uploadIds(
      t.key,
      [
        { name: "clip.mp4", type: "video/mp4", bytes: video },
        { name: "sandbox-unprocessable-clip.mp4", type: "video/mp4", bytes: video },
      ],
      { baseUrl: server.url, platform: "platform_a" },
    );
    const failed = await finishedUpload(t.key, badId!, 90_000, server.url);
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe("platform_a could not process the video: its encoding is not supported (sandbox-unprocessable)");
    const done = await finishedUpload(t.key, okId!, 90_000, server.url);
    expect(done.status).toBe("completed");
    expect(done.platform_a.videoId).toMatch(/^\d+$/);

    const creative = await waitFor("the video's creative", async () => (await allCreatives(t.key, server.url)).find((c) => c.fileName === "clip.mp4"), 60_000);
    await creativeWhen(t.key, creative.id, (c) => c.status === "ready", 60_000, server.url);
    const accounts = await accountsOf(t.key, server.url);
    const call = (name: string, args: unknown) => callTool(t.key, name, args, {}, server.url);
    const sent = await call("send_creative_to_ad_account", { creativeId: creative.id, adAccountId: accounts.platform_b });
    expect(sent.status).toBe(200);
    const pushes = await waitFor(
      "both pushes ready",
      async () => {
        const list = (await call("list_creative_pushes", { creativeId: creative.id })).body.result.pushes;
        return list.length === 2 && list.every((p: any) => p.state === "ready") && list;
      },
      60_000,
    );
    for (const p of pushes) expect(p).toMatchObject({ chunksTotal: chunks, chunksDone: chunks });
    expect(pushes[0].externalId).toBe(done.platform_a.videoId);

    const { sessions } = await admin<any>(["sandbox", "media", "--workspace", t.workspaceId], dataDir);
    const rows = sessions.map((s: any) => [s.fileName, s.platform, s.chunksAccepted, s.chunksRepeated, s.finished].join(" ")).sort();
    expect(rows).toEqual([
      `clip.mp4 platform_a ${chunks} 0 true`,
      `clip.mp4 platform_b ${chunks} 0 true`,
      `sandbox-unprocessable-clip.mp4 platform_a ${chunks} 0 true`,
    ]);
    await server.stop();
  }, 240_000);
});
