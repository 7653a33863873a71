/**
 * A workspace with many active sandbox ads and their history: planted on the sandbox platform through
 * its test surface (plantSandboxAds) and written straight into the ads domain's tables (fast setup for
 * the bench and the job test; the rollup under test reads them through the platform adapter like any ads).
 */
import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { PLATFORM_RULES } from "@/lib/platforms/ad-rules";
import { getAdAccount } from "@/lib/platforms";
import type { AdAccountRef } from "@/lib/platforms/types";
import { advanceSandbox, plantSandboxAds } from "@/lib/platforms/sandbox/operator";
import { createWorkspace } from "@/lib/workspaces/workspaces";

const ADS_PER_SET = 20;
const ADS_PER_CREATIVE = 4;

/** A workspace whose platform_a account has `ads` active ads with 30 days of delivery behind them. */
export async function workspaceWith(ads: number, historyHours = 24 * 30): Promise<string> {
  const { workspaceId } = await createWorkspace({ name: `Bench ${ads}`, plan: "pro" });
  await plantActiveAds(workspaceId, "platform_a", ads);
  if (historyHours > 0) await advanceSandbox(workspaceId, historyHours);
  return workspaceId;
}

/**
 * `ads` active ads on the workspace's sandbox account of the platform (its default, or `account`, another of its
 * sandbox accounts), 20 per ad set, 4 per creative (creatives `cre_<account>_<n>`, or `<creativePrefix><n>`: the same
 * prefix on both platforms gives creatives ads on both; or `creatives`, the n-th creative's id and the quality of its
 * ads, which the platform's delivery follows), each ad set spending `dailyBudgetMinor` a day (200.00 unless given).
 */
export async function plantActiveAds(
  workspaceId: string,
  platform: Platform,
  ads: number,
  options: { creativePrefix?: string; creatives?: { id: string; quality: number }[]; account?: AdAccountRef; dailyBudgetMinor?: number } = {},
): Promise<void> {
  const prisma = getDb();
  const account = options.account ?? (await getAdAccount(workspaceId, platform))!;
  const acct = account.externalAccountId;
  const creativePrefix = options.creativePrefix ?? `cre_${acct}_`;
  const creativeOf = (i: number) => options.creatives?.[Math.floor(i / ADS_PER_CREATIVE)];
  const rules = PLATFORM_RULES[platform];
  // The app's client refs are unique per workspace: the second platform's and another account's get a prefix.
  const prefix = `${platform === "platform_a" ? "" : `${platform}-`}${options.account ? `${acct}-` : ""}`;
  const ref = (r: string) => `${prefix}${r}`;
  const active = rules.statusNames.active;
  const sets = Math.ceil(ads / ADS_PER_SET);
  const dailyBudgetMinor = options.dailyBudgetMinor ?? 20_000;
  await plantSandboxAds(account, {
    objective: rules.objectiveNames.sales,
    status: active,
    adSets: Array.from({ length: sets }, (_, s) => ({ clientRef: `s${s}`, name: `Set ${s}`, budgetMinor: dailyBudgetMinor })),
    ads: Array.from({ length: ads }, (_, i) => ({
      clientRef: `a${i}`,
      name: `Ad ${i}`,
      adSet: Math.floor(i / ADS_PER_SET),
      mediaId: `media-${i}`,
      callToAction: "SHOP_NOW",
      landingUrl: "https://example.com",
      // One quality per creative, spread from 0.6 to 1.4: per ad, a creative's four ads averaged out near 1.0 and
      // whether any creative left the band around the median (a label change) came down to the delivery's noise.
      quality: creativeOf(i)?.quality ?? 0.6 + ((Math.floor(i / ADS_PER_CREATIVE) * 37) % 80) / 100,
    })),
  });
  await prisma.adCampaign.create({
    data: {
      id: `camp_${acct}`,
      workspaceId,
      adAccountId: account.id,
      platform,
      clientRef: ref("c"),
      externalId: `${acct}-c`,
      name: "Bench",
      objective: "sales",
      status: "active",
    },
  });
  await prisma.adSet.createMany({
    data: Array.from({ length: sets }, (_, s) => ({
      id: `adset_${acct}_${s}`,
      workspaceId,
      campaignId: `camp_${acct}`,
      platform,
      clientRef: ref(`s${s}`),
      externalId: `${acct}-s${s}`,
      name: `Set ${s}`,
      status: "active",
      budgetType: "daily",
      budgetMinor: dailyBudgetMinor,
    })),
  });
  for (let start = 0; start < ads; start += 1000) {
    const n = Math.min(1000, ads - start);
    const idx = Array.from({ length: n }, (_, k) => start + k);
    await prisma.ad.createMany({
      data: idx.map((i) => ({
        id: `ad_${acct}_${i}`,
        workspaceId,
        campaignId: `camp_${acct}`,
        adSetId: `adset_${acct}_${Math.floor(i / ADS_PER_SET)}`,
        platform,
        clientRef: ref(`a${i}`),
        externalId: `${acct}-a${i}`,
        name: `Ad ${i}`,
        status: "active",
        creativeId: creativeOf(i)?.id ?? `${creativePrefix}${Math.floor(i / ADS_PER_CREATIVE)}`,
        callToAction: "shop_now",
        landingUrl: "https://example.com",
      })),
    });
  }
}
