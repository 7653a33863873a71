/**
 * A workspace with many active sandbox ads and their history, written straight into the sandbox's
 * and the ads domain's tables (fast setup for the bench and the job test; the rollup under test
 * reads them through the platform adapter like any ads).
 */
import { getDb } from "@/lib/db/client";
import { PLATFORM_RULES } from "@/lib/platforms/ad-rules";
import { getAdAccount } from "@/lib/platforms";
import { advanceSandbox } from "@/lib/platforms/sandbox-ads/advance";
import { sandboxAccount } from "@/lib/platforms/sandbox-ads/clock";
import { createWorkspace } from "@/lib/workspaces/workspaces";

const ADS_PER_SET = 20;
const ADS_PER_CREATIVE = 4;

/** A workspace whose platform_a account has `ads` active ads with 30 days of delivery behind them. */
export async function workspaceWith(ads: number, historyHours = 24 * 30): Promise<string> {
  const prisma = getDb();
  const { workspaceId } = await createWorkspace({ name: `Bench ${ads}`, plan: "pro" });
  const account = (await getAdAccount(workspaceId, "platform_a"))!;
  const acct = account.externalAccountId;
  await sandboxAccount(account);
  const rules = PLATFORM_RULES.platform_a;
  const active = rules.statusNames.active;
  const sets = Math.ceil(ads / ADS_PER_SET);
  await prisma.sandboxCampaign.create({
    data: { id: `${acct}-c`, accountId: acct, clientRef: "c", name: "Bench", objective: rules.objectiveNames.sales, status: active },
  });
  await prisma.adCampaign.create({
    data: {
      id: `camp_${acct}`,
      workspaceId,
      adAccountId: account.id,
      platform: "platform_a",
      clientRef: "c",
      externalId: `${acct}-c`,
      name: "Bench",
      objective: "sales",
      status: "active",
    },
  });
  await prisma.sandboxAdSet.createMany({
    data: Array.from({ length: sets }, (_, s) => ({
      id: `${acct}-s${s}`,
      accountId: acct,
      campaignId: `${acct}-c`,
      clientRef: `s${s}`,
      name: `Set ${s}`,
      status: active,
      budgetType: "daily",
      budgetMinor: 20_000,
      targeting: { countries: ["US"] },
      audienceSize: 40_000,
    })),
  });
  await prisma.adSet.createMany({
    data: Array.from({ length: sets }, (_, s) => ({
      id: `adset_${acct}_${s}`,
      workspaceId,
      campaignId: `camp_${acct}`,
      platform: "platform_a" as const,
      clientRef: `s${s}`,
      externalId: `${acct}-s${s}`,
      name: `Set ${s}`,
      status: "active",
      budgetType: "daily",
      budgetMinor: 20_000,
    })),
  });
  for (let start = 0; start < ads; start += 1000) {
    const n = Math.min(1000, ads - start);
    const idx = Array.from({ length: n }, (_, k) => start + k);
    await prisma.sandboxAd.createMany({
      data: idx.map((i) => ({
        id: `${acct}-a${i}`,
        accountId: acct,
        adSetId: `${acct}-s${Math.floor(i / ADS_PER_SET)}`,
        clientRef: `a${i}`,
        name: `Ad ${i}`,
        status: active,
        mediaId: `media-${i}`,
        mediaKind: "image",
        callToAction: "SHOP_NOW",
        landingUrl: "https://example.com",
        quality: 0.6 + ((i * 37) % 80) / 100,
      })),
    });
    await prisma.ad.createMany({
      data: idx.map((i) => ({
        id: `ad_${acct}_${i}`,
        workspaceId,
        campaignId: `camp_${acct}`,
        adSetId: `adset_${acct}_${Math.floor(i / ADS_PER_SET)}`,
        platform: "platform_a" as const,
        clientRef: `a${i}`,
        externalId: `${acct}-a${i}`,
        name: `Ad ${i}`,
        status: "active",
        creativeId: `cre_${acct}_${Math.floor(i / ADS_PER_CREATIVE)}`,
        callToAction: "shop_now",
        landingUrl: "https://example.com",
      })),
    });
  }
  if (historyHours > 0) await advanceSandbox(workspaceId, historyHours);
  return workspaceId;
}
