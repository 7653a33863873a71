import { inject } from "vitest";
import { admin } from "../helpers/fixtures";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { toolResult } from "../tools/helpers";

type PlatformName = "platform_a" | "platform_b";
let uniq = 0;

/** Uploads PNGs (400x400 by default: within both platforms' rules) to the platform and waits until their creatives are ready. */
export async function adCreatives(
  key: string,
  options: { platform?: PlatformName; count?: number; width?: number; height?: number; baseUrl?: string } = {},
): Promise<{ creativeId: string; fileName: string }[]> {
  const count = options.count ?? 1;
  const files = await Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `ad-${Date.now()}-${++uniq}-${i}.png`,
      type: "image/png",
      bytes: await pngImage(options.width ?? 400, options.height ?? 400),
    })),
  );
  const ids = await uploadIds(key, files, { platform: options.platform ?? "platform_a", baseUrl: options.baseUrl });
  for (const id of ids) {
    const upload = await finishedUpload(key, id, 90_000, options.baseUrl);
    if (upload.status !== "completed") throw new Error(`upload ${id} ended ${upload.status}: ${upload.error}`);
  }
  const out = [];
  for (const f of files) {
    const creative = await waitFor(`creative of ${f.name}`, async () => (await allCreatives(key, options.baseUrl)).find((c) => c.fileName === f.name), 60_000);
    await creativeWhen(key, creative.id, (c) => c.status === "ready", 60_000, options.baseUrl);
    out.push({ creativeId: creative.id as string, fileName: f.name });
  }
  return out;
}

/** A copy variant on the creative with text both platforms accept. */
export async function adCopy(key: string, creativeId: string, headline = "Fresh picks", primaryText = "Shop the new season today"): Promise<string> {
  return (await toolResult(key, "create_copy_variant", { creativeId, headline, primaryText, label: headline })).id;
}

/** A paused campaign and ad set / ad group on the platform, with a budget above its minimum. */
export async function campaignWithAdSet(key: string, platform: PlatformName = "platform_a", budgetMinor?: number): Promise<{ campaign: any; adSet: any }> {
  const { campaign } = await toolResult(key, "create_campaign", { platform, name: `Campaign ${++uniq}`, objective: "sales" });
  const targeting = platform === "platform_a" ? { targetCountries: ["US", "DE"] } : { locationIds: ["6252001"] };
  const { adSet } = await toolResult(key, "create_ad_set", {
    campaignId: campaign.id,
    platform,
    name: `Set ${uniq}`,
    budget: { type: "daily", amountMinor: budgetMinor ?? (platform === "platform_a" ? 5000 : 6000) },
    ...targeting,
  });
  return { campaign, adSet };
}

/** One paused ad on the platform, from a fresh creative and copy. */
export async function pausedAd(key: string, platform: PlatformName = "platform_a"): Promise<{ ad: any; adSet: any; campaign: any; creativeId: string }> {
  const [{ creativeId }] = await adCreatives(key, { platform });
  const copyVariantId = await adCopy(key, creativeId!);
  const { campaign, adSet } = await campaignWithAdSet(key, platform);
  const { ad } = await toolResult(key, "create_ad", {
    adSetId: adSet.id,
    creativeId,
    copyVariantId,
    callToAction: "shop_now",
    landingUrl: "https://example.com/shop",
  });
  return { ad, adSet, campaign, creativeId: creativeId! };
}

/** `sandbox advance` through the operator CLI path. */
export async function advance(workspaceId: string, hours: number, dataDir = inject("dataDir")): Promise<any> {
  return admin(["sandbox", "advance", "--workspace", workspaceId, "--hours", String(hours)], dataDir);
}
