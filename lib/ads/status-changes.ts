import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { isAppError, notFound } from "@/lib/errors";
import type { Ad, AdCampaign, AdSet } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { scheduledDays } from "@/lib/platforms/ad-rules";
import type { AdObjectStatus } from "@/lib/platforms/ads-types";
import { toAd, toAdSet, toCampaign, type AdOut, type AdSetOut, type CampaignOut } from "./ad-schemas";
import { requireAdSet, requireCampaign, requireNotDeleted } from "./lookups";
import { platformForAccount, platformForCampaign, withBusyRetry } from "./platform-access";

/** Status changes on the platform, then here. Each is idempotent: the same change twice is one change. */

async function setCampaignStatus(principal: Principal, row: AdCampaign, status: AdObjectStatus): Promise<AdCampaign> {
  if (row.status === status) return row;
  const { account, api } = await platformForAccount(principal, row.adAccountId);
  await api.updateCampaign(account, row.externalId, { status, clientRef: newId("ref") });
  return getDb().adCampaign.update({ where: { id: row.id }, data: { status } });
}

async function setAdSetStatus(principal: Principal, row: AdSet, status: AdObjectStatus): Promise<AdSet> {
  if (row.status === status) return row;
  const { account, api } = await platformForCampaign(principal, row.campaignId);
  await api.updateAdSet(account, row.externalId, { status, clientRef: newId("ref") });
  return getDb().adSet.update({ where: { id: row.id }, data: { status } });
}

async function setAdStatus(principal: Principal, row: Ad, status: AdObjectStatus): Promise<Ad> {
  if (row.status === status) return row;
  const { account, api } = await platformForCampaign(principal, row.campaignId);
  await api.updateAd(account, row.externalId, { status, clientRef: newId("ref") });
  return getDb().ad.update({ where: { id: row.id }, data: { status } });
}

/** A budget as spend per day: lifetime budgets spread over their scheduled days. */
function dailySpendOf(adSet: AdSet): number {
  if (adSet.budgetType === "daily") return adSet.budgetMinor;
  const start = adSet.startTime ?? adSet.createdAt;
  return adSet.endTime ? Math.ceil(adSet.budgetMinor / scheduledDays(start, adSet.endTime)) : adSet.budgetMinor;
}

async function loadAds(principal: Principal, adIds: string[]): Promise<Ad[]> {
  const ids = [...new Set(adIds)];
  const rows = await getDb().ad.findMany({ where: { id: { in: ids }, workspaceId: principal.workspaceId } });
  const missing = ids.find((id) => !rows.some((r) => r.id === id));
  if (missing) throw notFound(`Ad ${missing}`);
  for (const r of rows) requireNotDeleted(r, "Ad");
  return ids.map((id) => rows.find((r) => r.id === id)!);
}

/** An ad the platform (or a check) refused to change, and why; the call's other ads were changed. */
export interface AdChangeFailure {
  adId: string;
  code: string;
  message: string;
}

/**
 * Changes each ad's status, one refusal not stopping the rest (a rate limit is waited out first): a bulk pause
 * that stopped at its 30th ad left the others spending, and its error did not say which had changed. When no
 * ad changed, the first refusal is the call's error.
 */
async function setEachAdStatus(principal: Principal, ads: Ad[], status: AdObjectStatus): Promise<{ changed: Ad[]; failed: AdChangeFailure[] }> {
  const changed: Ad[] = [];
  const failed: AdChangeFailure[] = [];
  let first: unknown = null;
  for (const ad of ads) {
    try {
      changed.push(await withBusyRetry(() => setAdStatus(principal, ad, status)));
    } catch (err) {
      if (!isAppError(err)) throw err;
      first ??= err;
      failed.push({ adId: ad.id, code: err.code, message: err.message });
    }
  }
  if (!changed.length && first) throw first;
  return { changed, failed };
}

export interface ActivationOutcome {
  ads: AdOut[];
  /** Ad sets that start spending with this activation (they had no delivering ad before). */
  adSetsSwitchedOn: { id: string; name: string; platform: string; dailySpendMinor: number; currency: string }[];
  /** Per currency: the daily spend switched on. */
  dailySpendSwitchedOn: { currency: string; amountMinor: number }[];
  dryRun: boolean;
  /** Ads the platform refused to activate (the others were). */
  failed: AdChangeFailure[];
}

/**
 * Activates the ads and, where paused, their ad sets and campaigns (an ad only delivers with
 * both active). Answers the daily spend this switches on; with `dryRun`, only that answer.
 */
export async function activateAds(principal: Principal, input: { adIds: string[]; dryRun?: boolean }): Promise<ActivationOutcome> {
  const ads = await loadAds(principal, input.adIds);
  const db = getDb();
  const adSets = await db.adSet.findMany({ where: { id: { in: [...new Set(ads.map((a) => a.adSetId))] }, workspaceId: principal.workspaceId } });
  const campaigns = await db.adCampaign.findMany({ where: { id: { in: [...new Set(ads.map((a) => a.campaignId))] }, workspaceId: principal.workspaceId } });
  const delivering = await db.ad.groupBy({ by: ["adSetId"], where: { adSetId: { in: adSets.map((s) => s.id) }, status: "active" }, _count: true });
  // Each ad set spends in its campaign's account's currency.
  const currencies = new Map<string, string>();
  for (const adAccountId of new Set(campaigns.map((c) => c.adAccountId))) {
    const { account, api } = await platformForAccount(principal, adAccountId);
    currencies.set(adAccountId, (await api.getAccount(account)).currency);
  }
  const switchedOn = adSets
    .filter((s) => {
      const campaign = campaigns.find((c) => c.id === s.campaignId)!;
      const wasDelivering = s.status === "active" && campaign.status === "active" && delivering.some((d) => d.adSetId === s.id);
      return !wasDelivering;
    })
    .map((s) => ({
      id: s.id,
      name: s.name,
      platform: s.platform,
      dailySpendMinor: dailySpendOf(s),
      currency: currencies.get(campaigns.find((c) => c.id === s.campaignId)!.adAccountId)!,
    }));
  const totals = new Map<string, number>();
  for (const s of switchedOn) totals.set(s.currency, (totals.get(s.currency) ?? 0) + s.dailySpendMinor);
  const dailySpendSwitchedOn = [...totals].map(([currency, amountMinor]) => ({ currency, amountMinor }));

  if (input.dryRun) return { ads: ads.map(toAd), adSetsSwitchedOn: switchedOn, dailySpendSwitchedOn, dryRun: true, failed: [] };
  for (const campaign of campaigns) {
    requireNotDeleted(campaign, "Campaign");
    await setCampaignStatus(principal, campaign, "active");
  }
  for (const adSet of adSets) {
    requireNotDeleted(adSet, "Ad set");
    await setAdSetStatus(principal, adSet, "active");
  }
  const { changed, failed } = await setEachAdStatus(principal, ads, "active");
  return { ads: changed.map(toAd), adSetsSwitchedOn: switchedOn, dailySpendSwitchedOn, dryRun: false, failed };
}

/** Pauses the ads (they stop spending at once); each ad the platform refuses is listed in `failed`, the rest are paused. */
export async function pauseAds(principal: Principal, input: { adIds: string[] }): Promise<{ ads: AdOut[]; failed: AdChangeFailure[] }> {
  const { changed, failed } = await setEachAdStatus(principal, await loadAds(principal, input.adIds), "paused");
  return { ads: changed.map(toAd), failed };
}

export async function deleteAds(principal: Principal, input: { adIds: string[] }): Promise<{ deleted: number; failed: AdChangeFailure[] }> {
  const { changed, failed } = await setEachAdStatus(principal, await loadAds(principal, input.adIds), "deleted");
  return { deleted: changed.length, failed };
}

export async function setCampaignActive(principal: Principal, input: { id: string }, active: boolean): Promise<{ campaign: CampaignOut }> {
  const row = await requireCampaign(principal, input.id);
  requireNotDeleted(row, "Campaign");
  return { campaign: toCampaign(await setCampaignStatus(principal, row, active ? "active" : "paused")) };
}

/**
 * Activates or pauses one ad and nothing above it: what a rule does. A rule's plan and preview name the ad only,
 * so a campaign or ad set someone paused stays paused (activate_ads, which a person calls, switches them on).
 */
export async function setAdActive(principal: Principal, input: { id: string }, active: boolean): Promise<{ ad: AdOut }> {
  const [row] = await loadAds(principal, [input.id]);
  return { ad: toAd(await setAdStatus(principal, row!, active ? "active" : "paused")) };
}

export async function setAdSetActive(principal: Principal, input: { id: string }, active: boolean): Promise<{ adSet: AdSetOut }> {
  const row = await requireAdSet(principal, input.id);
  requireNotDeleted(row, "Ad set");
  return { adSet: toAdSet(await setAdSetStatus(principal, row, active ? "active" : "paused")) };
}

/** Deletes a campaign on the platform; its ad sets and ads are deleted with it (as the platforms do). */
export async function deleteCampaign(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  const row = await requireCampaign(principal, input.id);
  if (row.status !== "deleted") await setCampaignStatus(principal, row, "deleted");
  const db = getDb();
  await db.$transaction([
    db.adSet.updateMany({ where: { campaignId: row.id, workspaceId: principal.workspaceId }, data: { status: "deleted" } }),
    db.ad.updateMany({ where: { campaignId: row.id, workspaceId: principal.workspaceId }, data: { status: "deleted" } }),
  ]);
  return { ok: true };
}

/** Deletes an ad set / ad group and its ads. */
export async function deleteAdSet(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  const row = await requireAdSet(principal, input.id);
  if (row.status !== "deleted") await setAdSetStatus(principal, row, "deleted");
  await getDb().ad.updateMany({ where: { adSetId: row.id, workspaceId: principal.workspaceId }, data: { status: "deleted" } });
  return { ok: true };
}
