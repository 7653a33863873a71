/**
 * Naming conventions: a workspace's file-name pattern labels the creatives its uploads make, and
 * the bulk builder makes one ad per concept with the aspect the platform fits best.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { campaignWithAdSet } from "../ads/helpers";
import { callTool, toolResult } from "../tools/helpers";

const PATTERN = "{concept}_{hook}_{aspect}";
const FILES = [
  { name: "spring_hookA_9x16.png", w: 540, h: 960 },
  { name: "spring_hookA_4x5.png", w: 480, h: 600 },
  { name: "spring_hookA_1x1.png", w: 500, h: 500 },
  { name: "summer_hookB_1:1.png", w: 400, h: 400 },
  { name: "untitled-banner.png", w: 400, h: 400 },
];

let t: Tenant;
let byName: Map<string, any>;

async function uploadAndWait(key: string, files: typeof FILES): Promise<Map<string, any>> {
  const ids = await uploadIds(key, await Promise.all(files.map(async (f) => ({ name: f.name, type: "image/png", bytes: await pngImage(f.w, f.h) }))));
  for (const id of ids) expect((await finishedUpload(key, id, 90_000)).status).toBe("completed");
  const found = await waitFor("the creatives", async () => {
    const all = await allCreatives(key);
    return files.every((f) => all.some((c) => c.fileName === f.name)) ? all : undefined;
  });
  for (const c of found) await creativeWhen(key, c.id, (x) => x.status === "ready");
  return new Map(found.map((c: any) => [c.fileName, c]));
}

beforeAll(async () => {
  t = await createTenant();
  const set = await toolResult(t.key, "set_naming_convention", { pattern: PATTERN, example: "spring_hookA_9:16.mp4" });
  expect(set).toEqual({
    namingConvention: { pattern: PATTERN, fields: ["concept", "hook", "aspect"] },
    example: { fileName: "spring_hookA_9:16.mp4", labels: { concept: "spring", hook: "hookA", aspect: "9x16" } },
  });
  byName = await uploadAndWait(t.key, FILES);
}, 240_000);

describe("naming conventions", () => {
  it("labels each new creative from its file name; a name that does not fit gets none", async () => {
    expect(byName.get("spring_hookA_9x16.png").labels).toEqual({ concept: "spring", hook: "hookA", aspect: "9x16" });
    expect(byName.get("spring_hookA_4x5.png").labels).toEqual({ concept: "spring", hook: "hookA", aspect: "4x5" });
    expect(byName.get("summer_hookB_1:1.png").labels).toEqual({ concept: "summer", hook: "hookB", aspect: "1x1" });
    expect(byName.get("untitled-banner.png")).not.toHaveProperty("labels");
    expect(await toolResult(t.key, "get_naming_convention", {})).toEqual({ namingConvention: { pattern: PATTERN, fields: ["concept", "hook", "aspect"] } });
  });

  it("is the workspace's own: another workspace's uploads of the same names get no labels", async () => {
    const other = await createTenant();
    expect((await toolResult(other.key, "get_naming_convention", {})).namingConvention.pattern).toBeNull();
    const theirs = await uploadAndWait(other.key, [FILES[0]!]);
    expect(theirs.get("spring_hookA_9x16.png")).not.toHaveProperty("labels");
  }, 120_000);

  it("refuses patterns it cannot read, and viewers may not set one", async () => {
    for (const [pattern, why] of [
      ["{concept}{hook}", /need text between them/],
      ["no fields here", /names no field/],
      ["{Concept}_{x}", /lowercase letters/],
      ["{a}_{a}", /appears twice/],
      ["{a}_{b", /unbalanced/],
    ] as const) {
      const res = await callTool(t.key, "set_naming_convention", { pattern });
      expect(res.status, pattern).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
      expect(res.body.error.message).toMatch(why);
    }
    const viewer = await createMemberKey(t, { role: "viewer" });
    const refused = await callTool(viewer.key, "set_naming_convention", { pattern: "{x}" });
    expect(refused.status).toBe(403);
    expect((await toolResult(viewer.key, "get_naming_convention", {})).namingConvention.pattern).toBe(PATTERN);
  });

  it("the bulk builder makes one ad per concept, with the aspect each platform fits best", async () => {
    const ids = FILES.map((f) => byName.get(f.name).id as string);
    const build = (adSetId: string, extra: object = {}) => ({
      adSetId,
      creativeIds: ids,
      callToAction: "shop_now",
      landingUrl: "https://example.com/shop",
      byConcept: true,
      ...extra,
    });

    const a = (await campaignWithAdSet(t.key, "platform_a")).adSet.id;
    const preview = await toolResult(t.key, "build_ads_from_library", build(a, { dryRun: true }));
    expect(preview.pairs).toBe(3);
    expect(preview.ads.map((r: any) => r.creativeId)).toEqual([
      byName.get("spring_hookA_4x5.png").id,
      byName.get("summer_hookB_1:1.png").id,
      byName.get("untitled-banner.png").id,
    ]);
    expect(preview.ads[0].conceptCreativeIds).toEqual(ids.slice(0, 3));
    expect(preview.ads[2].conceptCreativeIds).toEqual([ids[4]]);

    const b = (await campaignWithAdSet(t.key, "platform_b")).adSet.id;
    const vertical = await toolResult(t.key, "build_ads_from_library", build(b, { dryRun: true }));
    expect(vertical.ads[0].creativeId).toBe(byName.get("spring_hookA_9x16.png").id);

    const built = await toolResult(t.key, "build_ads_from_library", build(a));
    expect(built).toMatchObject({ pairs: 3, created: 3, failed: 0 });
    const ads = (await toolResult(t.key, "list_ads", { adSetId: a, limit: 50 })).ads;
    expect(ads.map((ad: any) => ad.creativeId).sort()).toEqual(preview.ads.map((r: any) => r.creativeId).sort());
    // Without byConcept every creative is its own ad, as before.
    expect((await toolResult(t.key, "build_ads_from_library", build(a, { byConcept: false, dryRun: true }))).pairs).toBe(5);
  }, 180_000);

  it("clears the pattern with null", async () => {
    const other = await createTenant();
    await toolResult(other.key, "set_naming_convention", { pattern: "{concept}_{aspect}" });
    expect(await toolResult(other.key, "set_naming_convention", { pattern: null })).toEqual({ namingConvention: { pattern: null, fields: [] }, example: null });
    expect((await api(other.key)("/api/v1/tools/get_naming_convention", { method: "POST", json: {} })).body.result.namingConvention.pattern).toBeNull();
  });
});
