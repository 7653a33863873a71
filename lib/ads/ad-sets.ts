import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import { budgetProblem, PLATFORM_RULES } from "@/lib/platforms/ad-rules";
import type { AdObjectStatus, Budget, Targeting } from "@/lib/platforms/ads-types";
import { toAdSet, type AdSetOut } from "./ad-schemas";
import { locationNames } from "./locations";
import { invalidArgument, requireAdSet, requireCampaign, requireNotDeleted } from "./lookups";
import { platformForAccount, platformForCampaign } from "./platform-access";

export interface CreateAdSetInput {
  campaignId: string;
  platform: Platform;
  name: string;
  budget: Budget;
  startTime?: string;
  endTime?: string;
  targetCountries?: string[];
  targetRegions?: string[];
  targetCities?: string[];
  locationIds?: string[];
  ageMin?: number;
  ageMax?: number;
  audienceId?: string;
  clientRef?: string;
}

/** The workspace's ad sets / ad groups, newest first; of one campaign when given. */
export async function listAdSets(
  principal: Principal,
  input: { campaignId?: string; status?: AdObjectStatus; limit: number; cursor?: string },
): Promise<{ adSets: AdSetOut[]; nextCursor: string | null }> {
  if (input.campaignId) await requireCampaign(principal, input.campaignId);
  const rows = await getDb().adSet.findMany({
    where: {
      workspaceId: principal.workspaceId,
      ...(input.campaignId ? { campaignId: input.campaignId } : {}),
      status: input.status ?? { not: "deleted" },
      ...afterCursor(input.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { adSets: page.items.map(toAdSet), nextCursor: page.nextCursor };
}

export async function getAdSet(principal: Principal, input: { id: string }): Promise<{ adSet: AdSetOut }> {
  return { adSet: toAdSet(await requireAdSet(principal, input.id)) };
}

/** The platform's minimum budget and schedule rules, checked with the account's currency before anything is sent. */
export async function checkBudget(platform: Platform, budget: Budget, schedule: { startTime: Date; endTime: Date | null }, currency: string): Promise<void> {
  const problem = budgetProblem(platform, budget, schedule, currency);
  if (problem) throw invalidArgument(problem);
}

/**
 * Creates a paused ad set (platform_a) or ad group (platform_b) in the campaign. Each platform's
 * own targeting is required (countries, regions or cities on A, location ids on B); names the
 * location search gave the ids are kept for display; the budget must meet the
 * platform's minimum in the account currency.
 */
export async function createAdSet(principal: Principal, input: CreateAdSetInput): Promise<{ adSet: AdSetOut; created: boolean }> {
  const db = getDb();
  const campaign = await requireCampaign(principal, input.campaignId);
  requireNotDeleted(campaign, "Campaign");
  if (campaign.platform !== input.platform) throw invalidArgument(`platform: the campaign is on ${campaign.platform}, not ${input.platform}`);
  const clientRef = input.clientRef ?? newId("ref");
  const earlier = await db.adSet.findUnique({ where: { clientRef_workspaceId: { clientRef, workspaceId: principal.workspaceId } } });
  if (earlier) return { adSet: toAdSet(earlier), created: false };

  const { account, api } = await platformForAccount(principal, campaign.adAccountId);
  const info = await api.getAccount(account);
  const startTime = input.startTime ? new Date(input.startTime) : new Date(info.now);
  await checkBudget(input.platform, input.budget, { startTime, endTime: input.endTime ? new Date(input.endTime) : null }, info.currency);
  if (input.audienceId && !(await api.listAudiences(account)).some((a) => a.externalId === input.audienceId)) {
    throw invalidArgument(`audienceId: no saved audience ${input.audienceId} on the ${input.platform} ad account (list_audiences lists them)`);
  }
  const targeting: Targeting =
    input.platform === "platform_a"
      ? {
          platform: "platform_a",
          countries: input.targetCountries ?? [],
          regions: input.targetRegions ?? [],
          cities: input.targetCities ?? [],
          ageMin: input.ageMin ?? 18,
          ageMax: input.ageMax ?? 65,
        }
      : { platform: "platform_b", locationIds: input.locationIds!, ageGroups: [] };
  const names =
    input.platform === "platform_a"
      ? await locationNames("platform_a", [
          { type: "region", ids: input.targetRegions ?? [] },
          { type: "city", ids: input.targetCities ?? [] },
        ])
      : await locationNames("platform_b", [{ type: null, ids: input.locationIds ?? [] }]);
  const made = await api.createAdSet(account, {
    clientRef,
    campaignExternalId: campaign.externalId,
    name: input.name,
    status: "paused",
    budget: input.budget,
    startTime: input.startTime ?? null,
    endTime: input.endTime ?? null,
    targeting,
    audienceId: input.audienceId ?? null,
  });
  const { count } = await db.adSet.createMany({
    data: [
      {
        id: newId("adset"),
        workspaceId: principal.workspaceId,
        campaignId: campaign.id,
        platform: input.platform,
        clientRef,
        externalId: made.externalId,
        name: made.name,
        status: made.status,
        budgetType: made.budget.type,
        budgetMinor: made.budget.amountMinor,
        startTime: input.startTime ? new Date(input.startTime) : null,
        endTime: input.endTime ? new Date(input.endTime) : null,
        targetCountries: input.platform === "platform_a" ? (input.targetCountries ?? []) : [],
        targetRegions: input.platform === "platform_a" ? (input.targetRegions ?? []) : [],
        targetCities: input.platform === "platform_a" ? (input.targetCities ?? []) : [],
        locationNames: names,
        locationIds: input.platform === "platform_b" ? input.locationIds! : [],
        ageMin: input.platform === "platform_a" ? (input.ageMin ?? 18) : null,
        ageMax: input.platform === "platform_a" ? (input.ageMax ?? 65) : null,
        audienceId: input.audienceId ?? null,
        createdById: principal.userId,
      },
    ],
    skipDuplicates: true,
  });
  const row = await db.adSet.findUniqueOrThrow({ where: { clientRef_workspaceId: { clientRef, workspaceId: principal.workspaceId } } });
  return { adSet: toAdSet(row), created: count > 0 };
}

/** Renames an ad set or moves its end time (a lifetime budget's minimum is checked again). */
/**
 * The live adapters send an end time only when there is one (Meta's end_time, TikTok's schedule_end_time), so
 * `null` on a set that has one would change nothing there while we recorded "no end": refused instead.
 */
function refuseClearingLiveEndTime(account: { mode: string }, row: { endTime: Date | null }, endTime: string | null | undefined): void {
  if (endTime === null && row.endTime !== null && account.mode === "live") {
    throw invalidArgument("endTime: a live ad set's end time cannot be removed here; set a later end time instead (or remove it in the platform's own tools)");
  }
}

export async function updateAdSet(principal: Principal, input: { id: string; name?: string; endTime?: string | null }): Promise<{ adSet: AdSetOut }> {
  // A later (or no) end time keeps the budget spending: that is the launch permission's, as set_ad_set_budget's is.
  if (input.endTime !== undefined) authorize(principal, "ads.launch");
  const row = await requireAdSet(principal, input.id);
  requireNotDeleted(row, PLATFORM_RULES[row.platform].adSetNoun === "ad set" ? "Ad set" : "Ad group");
  if (input.name === undefined && input.endTime === undefined) return { adSet: toAdSet(row) };
  const { account, api } = await platformForCampaign(principal, row.campaignId);
  refuseClearingLiveEndTime(account, row, input.endTime);
  if (input.endTime !== undefined) {
    const info = await api.getAccount(account);
    await checkBudget(
      row.platform,
      { type: row.budgetType as Budget["type"], amountMinor: row.budgetMinor },
      { startTime: row.startTime ?? row.createdAt, endTime: input.endTime ? new Date(input.endTime) : null },
      info.currency,
    );
  }
  const updated = await api.updateAdSet(account, row.externalId, { name: input.name, endTime: input.endTime, clientRef: newId("ref") });
  const saved = await getDb().adSet.update({
    where: { id: row.id },
    data: { name: updated.name, ...(input.endTime !== undefined ? { endTime: input.endTime ? new Date(input.endTime) : null } : {}) },
  });
  return { adSet: toAdSet(saved) };
}

/** Changes the budget of an ad set (spends money: the launch capability). */
export async function setAdSetBudget(principal: Principal, input: { id: string; budget: Budget; endTime?: string | null }): Promise<{ adSet: AdSetOut }> {
  const row = await requireAdSet(principal, input.id);
  requireNotDeleted(row, "Ad set");
  const { account, api } = await platformForCampaign(principal, row.campaignId);
  refuseClearingLiveEndTime(account, row, input.endTime);
  const info = await api.getAccount(account);
  const endTime = input.endTime !== undefined ? (input.endTime ? new Date(input.endTime) : null) : row.endTime;
  await checkBudget(row.platform, input.budget, { startTime: row.startTime ?? row.createdAt, endTime }, info.currency);
  const updated = await api.updateAdSet(account, row.externalId, {
    budget: input.budget,
    ...(input.endTime !== undefined ? { endTime: input.endTime } : {}),
    clientRef: newId("ref"),
  });
  const saved = await getDb().adSet.update({
    where: { id: row.id },
    data: { budgetType: updated.budget.type, budgetMinor: updated.budget.amountMinor, endTime },
  });
  return { adSet: toAdSet(saved) };
}
