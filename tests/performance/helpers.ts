import { createHash } from "node:crypto";
import { qualityOf } from "@/lib/platforms/sandbox/operator";
import { admin } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
import { adCopy, adCreatives, campaignWithAdSet } from "../ads/helpers";
import { toolResult } from "../tools/helpers";

/**
 * One active ad set on platform_a with one ad per creative. The creatives are PNGs of different
 * sizes, so their bytes (and the sandbox's quality, seeded from the image hash) differ.
 */
export async function liveAdSet(
  key: string,
  options: { creatives: number; budgetMinor?: number; widths?: number[] },
): Promise<{ adSet: any; campaign: any; ads: { id: string; creativeId: string; fileName: string }[] }> {
  const widths = options.widths ?? Array.from({ length: options.creatives }, (_, i) => 400 + 10 * i);
  const creatives = [];
  for (const width of widths) creatives.push(...(await adCreatives(key, { width, height: 400 })));
  const { campaign, adSet } = await campaignWithAdSet(key, "platform_a", options.budgetMinor ?? 20_000);
  const ads = [];
  for (const c of creatives) {
    const copyVariantId = await adCopy(key, c.creativeId);
    const { ad } = await toolResult(key, "create_ad", {
      adSetId: adSet.id,
      creativeId: c.creativeId,
      copyVariantId,
      callToAction: "shop_now",
      landingUrl: "https://example.com/shop",
    });
    ads.push({ id: ad.id as string, creativeId: c.creativeId, fileName: c.fileName });
  }
  await toolResult(key, "activate_ads", { adIds: ads.map((a) => a.id) });
  return { adSet, campaign, ads };
}

/** `performance rollup` through the operator CLI path (what the hourly job runs). */
export async function rollup(workspaceId: string, extra: string[] = []): Promise<any> {
  return admin(["performance", "rollup", "--workspace", workspaceId, ...extra]);
}

/**
 * Widths for liveAdSet whose creatives the sandbox rates near the given qualities (0.6 to 1.4). Platform A's
 * image id is the file's MD5, as Meta's image hash is, and the sandbox seeds a creative's quality from it:
 * a test that needs clear winners and losers picks its spread here instead of drawing it at random.
 */
export async function widthsForQualities(targets: number[], tolerance = 0.04): Promise<number[]> {
  const chosen: (number | undefined)[] = targets.map(() => undefined);
  for (let width = 400; width < 1400 && chosen.includes(undefined); width++) {
    const quality = qualityOf(
      createHash("md5")
        .update(await pngImage(width, 400))
        .digest("hex"),
    );
    const slot = targets.findIndex((target, i) => chosen[i] === undefined && Math.abs(quality - target) <= tolerance);
    if (slot >= 0) chosen[slot] = width;
  }
  if (chosen.includes(undefined)) throw new Error(`no widths for qualities ${targets.join(", ")} within ${tolerance}`);
  return chosen as number[];
}
