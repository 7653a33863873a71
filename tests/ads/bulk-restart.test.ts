import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { currentOwner } from "@adloom/pglite-driver";
import { admin, createTenant } from "../helpers/fixtures";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { migratedDataDir, startServer, tempDataDir, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";
import { freshDatabaseUrl } from "../helpers/fresh-database";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
});

async function result(key: string, name: string, args: object, baseUrl: string): Promise<any> {
  const res = await callTool(key, name, args, {}, baseUrl);
  if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result;
}

describe("building ads from the library across a server crash", () => {
  it("a bulk build killed midway and repeated after restart leaves exactly one ad per pair, here and on the platform", async () => {
    const databaseUrl = await freshDatabaseUrl("ads_restart");
    const dataDir = databaseUrl ? tempDataDir("ads-restart") : await migratedDataDir("ads-restart");
    // `sandbox-slow` files: each ad is made on the platform at once but answered 400 ms later, so the kill lands between the two.
    const env = { SANDBOX_SLOW_PUSH_MS: "400" };
    const first = await startServer({ dataDir, databaseUrl, env });
    servers.push(first);
    const t = await createTenant({ dataDir });

    const names = Array.from({ length: 4 }, (_, i) => `sandbox-slow-ad-${i}.png`);
    const files = await Promise.all(names.map(async (name) => ({ name, type: "image/png", bytes: await pngImage(400, 400) })));
    const uploads = await uploadIds(t.key, files, { baseUrl: first.url });
    for (const id of uploads) expect((await finishedUpload(t.key, id, 90_000, first.url)).status).toBe("completed");
    const creativeIds: string[] = [];
    for (const name of names) {
      const c = await waitFor(name, async () => (await allCreatives(t.key, first.url)).find((x) => x.fileName === name), 60_000);
      await creativeWhen(t.key, c.id, (x) => x.status === "ready", 60_000, first.url);
      creativeIds.push(c.id);
    }
    const copyIds: string[] = [];
    for (let i = 0; i < 6; i++)
      copyIds.push((await result(t.key, "create_copy_variant", { creativeId: creativeIds[0], headline: `Copy ${i}`, label: `v${i}` }, first.url)).id);
    const { campaign } = await result(t.key, "create_campaign", { platform: "platform_a", name: "Crash test", objective: "sales" }, first.url);
    const { adSet } = await result(
      t.key,
      "create_ad_set",
      { campaignId: campaign.id, platform: "platform_a", name: "All", budget: { type: "daily", amountMinor: 5000 }, targetCountries: ["US"] },
      first.url,
    );
    const build = { adSetId: adSet.id, creativeIds, copyVariantIds: copyIds, pairing: "all", callToAction: "shop_now", landingUrl: "https://example.com" };
    const pairs = creativeIds.length * copyIds.length;

    const inFlight = callTool(t.key, "build_ads_from_library", build, {}, first.url).catch(() => null);
    await waitFor(
      "some ads built",
      async () => {
        const n = (await result(t.key, "list_ads", { adSetId: adSet.id, limit: 200 }, first.url)).ads.length;
        return n >= 4 && n < pairs;
      },
      60_000,
      50,
    );
    await first.kill();
    await inFlight;
    await waitFor("the killed server's database lock to be released", async () => currentOwner(path.join(dataDir, "db")) === null || undefined, 15_000);

    const second = await startServer({ dataDir, databaseUrl, env });
    servers.push(second);
    const before = (await result(t.key, "list_ads", { adSetId: adSet.id, limit: 200 }, second.url)).ads.length;
    expect(before).toBeLessThan(pairs);
    const repeated = await result(t.key, "build_ads_from_library", build, second.url);
    expect(repeated.failed).toBe(0);
    expect(repeated.created + repeated.existing).toBe(pairs);
    expect(repeated.existing).toBe(before);

    const { ads } = await result(t.key, "list_ads", { adSetId: adSet.id, limit: 200 }, second.url);
    expect(ads).toHaveLength(pairs);
    expect(new Set(ads.map((a: any) => `${a.creativeId}|${a.copyVariantId}`)).size).toBe(pairs);
    expect(new Set(ads.map((a: any) => a.externalId)).size).toBe(pairs);
    const summary = await admin<any>(["sandbox", "advance", "--workspace", t.workspaceId, "--hours", "1"], dataDir);
    expect(summary.platforms.platform_a.objects).toEqual({ campaigns: 1, adSets: 1, ads: pairs });
    await second.stop();
  }, 300_000);
});
