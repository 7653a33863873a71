import { admin, api, createTenant, type Tenant } from "../helpers/fixtures";
import { toolResult } from "../tools/helpers";
import { adCopy, adCreatives, campaignWithAdSet } from "../ads/helpers";
import type { Receiver } from "../webhooks/helpers/receiver";

/** Active ads with these names in one new ad set on platform_a (one creative, one copy variant per ad). */
export async function activeAds(t: Tenant, names: string[], budgetMinor?: number): Promise<{ ads: any[]; adSet: any; campaign: any }> {
  const [{ creativeId }] = await adCreatives(t.key);
  const { campaign, adSet } = await campaignWithAdSet(t.key, "platform_a", budgetMinor);
  const ads = [];
  for (const [i, name] of names.entries()) {
    const copyVariantId = await adCopy(t.key, creativeId!, `Headline ${i + 1}`, `Primary text number ${i + 1}`);
    const { ad } = await toolResult(t.key, "create_ad", {
      adSetId: adSet.id,
      creativeId,
      copyVariantId,
      name,
      callToAction: "shop_now",
      landingUrl: "https://example.com/shop",
    });
    ads.push(ad);
  }
  await toolResult(t.key, "activate_ads", { adIds: ads.map((a) => a.id) });
  return { ads, adSet, campaign };
}

/** `admin automation run` (the operator path): evaluates the workspace's rules now and fires due schedules. */
export async function runAutomation(workspaceId: string, ruleId?: string): Promise<any> {
  return admin(["automation", "run", "--workspace", workspaceId, ...(ruleId ? ["--rule", ruleId] : [])]);
}

/** A tenant whose webhook endpoint is the receiver at a path of its own. */
export async function tenantWithEndpoint(receiver: Receiver, events?: string[]) {
  const tenant = await createTenant();
  const call = api(tenant.key);
  const path = `/t/${tenant.workspaceId}`;
  const { webhook } = (await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url.replace(/\/hooks$/, path) } })).body;
  if (events) await call("/api/v1/webhooks", { method: "PATCH", json: { events } });
  const received = (type?: string) =>
    receiver.requests
      .filter((r) => r.path === path)
      .map((r) => JSON.parse(r.body))
      .filter((e: any) => !type || e.type === type);
  return { tenant, secret: webhook.secret as string, received, path };
}

export const pauseRule = (nameContains: string, extra: Record<string, unknown> = {}) => ({
  name: `Pause ${nameContains}`,
  cooldownMinutes: 180,
  conditions: [{ metric: "impressions", operator: "gt", value: 0 }],
  window: "last_3_days",
  scope: { level: "ads", nameContains },
  action: { type: "pause" },
  ...extra,
});
