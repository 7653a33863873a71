/**
 * Bulk launch pairs what belongs together: by default each creative with its own copy variants;
 * all-by-all only when asked; the dry run answers every pair and the count before anything exists.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";
import { adCopy, adCreatives, campaignWithAdSet } from "./helpers";

let t: Tenant;
let creatives: string[];
let copiesOf: Map<string, string[]>;
let adSetId: string;

beforeAll(async () => {
  t = await createTenant();
  creatives = (await adCreatives(t.key, { count: 3 })).map((c) => c.creativeId);
  copiesOf = new Map();
  for (const [i, id] of creatives.entries()) copiesOf.set(id, [await adCopy(t.key, id, `Own ${i} a`), await adCopy(t.key, id, `Own ${i} b`)]);
  adSetId = (await campaignWithAdSet(t.key)).adSet.id;
}, 180_000);

const build = (args: object) => ({ adSetId, callToAction: "shop_now", landingUrl: "https://example.com/shop", ...args });
const allCopies = () => creatives.flatMap((id) => copiesOf.get(id)!);

describe("build_ads_from_library pairing", () => {
  it("pairs each creative with its own copy variants by default, previewing every pair and the count first", async () => {
    const preview = await toolResult(t.key, "build_ads_from_library", build({ creativeIds: creatives, copyVariantIds: allCopies(), dryRun: true }));
    expect(preview).toMatchObject({ pairing: "own", pairs: 6, created: 0 });
    expect(preview.ads.map((r: any) => [r.creativeId, r.copyVariantId])).toEqual(creatives.flatMap((id) => copiesOf.get(id)!.map((c) => [id, c])));
    expect((await toolResult(t.key, "list_ads", { adSetId })).ads).toEqual([]);

    // All-by-all only when chosen: 3 x 6.
    const everything = await toolResult(
      t.key,
      "build_ads_from_library",
      build({ creativeIds: creatives, copyVariantIds: allCopies(), pairing: "all", dryRun: true }),
    );
    expect(everything).toMatchObject({ pairing: "all", pairs: 18 });

    // A creative whose copy was not chosen gets one ad without copy; the count says so.
    const partial = await toolResult(
      t.key,
      "build_ads_from_library",
      build({ creativeIds: creatives, copyVariantIds: [copiesOf.get(creatives[0]!)![0]], dryRun: true }),
    );
    expect(partial.pairs).toBe(3);
    expect(partial.ads.map((r: any) => r.copyVariantId)).toEqual([copiesOf.get(creatives[0]!)![0], null, null]);

    const built = await toolResult(t.key, "build_ads_from_library", build({ creativeIds: creatives, copyVariantIds: allCopies() }));
    expect(built).toMatchObject({ pairing: "own", pairs: 6, created: 6, failed: 0 });
    const ads = (await toolResult(t.key, "list_ads", { adSetId, limit: 50 })).ads;
    expect(ads).toHaveLength(6);
    for (const ad of ads) expect(copiesOf.get(ad.creativeId)).toContain(ad.copyVariantId);
  }, 120_000);

  it("refuses a chosen copy variant whose creative is not in the build, with the envelope, creating nothing", async () => {
    const { adSet } = await campaignWithAdSet(t.key);
    const stray = copiesOf.get(creatives[2]!)![0]!;
    const res = await callTool(t.key, "build_ads_from_library", {
      ...build({ creativeIds: [creatives[0]], copyVariantIds: [copiesOf.get(creatives[0]!)![0], stray] }),
      adSetId: adSet.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_input");
    expect(res.body.error.message).toContain(`${stray} belongs to creative ${creatives[2]}`);
    expect(res.body.error.message).toContain('pairing "all"');
    expect((await toolResult(t.key, "list_ads", { adSetId: adSet.id })).ads).toEqual([]);
    const bad = await callTool(t.key, "build_ads_from_library", { ...build({ creativeIds: [creatives[0]], pairing: "some" }), adSetId: adSet.id });
    expect(bad.status).toBe(400);
  });
});
