import type { Principal } from "@/lib/auth/principal";
import { adsByAccount, platformFor, platformForAccount, withBusyRetry } from "@/lib/ads/platform-access";
import { getDb } from "@/lib/db/client";
import { toMajor } from "@/lib/money";
import type { Platform } from "@/lib/generated/prisma/enums";
import { getAdAccount } from "@/lib/platforms";
import type { DailyInsight } from "@/lib/platforms/ads-types";
import { WINDOW_DAYS, type RuleDefinition, type RuleLevel, type RuleMetric } from "./rule-schema";

/** One campaign, ad set or ad a rule may act on. */
export interface ScopedObject {
  id: string;
  level: RuleLevel;
  name: string;
  campaignName: string;
  platform: Platform;
  status: string;
  /** Ad sets only. */
  budget: { type: string; amountMinor: number } | null;
}

export type Metrics = Record<RuleMetric, number | null>;

/** What a rule reads: its objects with their metrics over the window, and the ad account's clock. */
export interface ScopeReading {
  objects: { object: ScopedObject; metrics: Metrics }[];
  /** The latest clock of the accounts read (the sandbox's simulated time); wall-clock time when none was read. */
  now: Date;
  window: { since: string; until: string } | null;
  currency: string | null;
}

const DAY_MS = 86_400_000;
const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

/** The objects of the rule's scope (never deleted ones), workspace-scoped. */
export async function scopedObjects(workspaceId: string, scope: RuleDefinition["scope"]): Promise<ScopedObject[]> {
  const db = getDb();
  const where = {
    workspaceId,
    status: { not: "deleted" },
    ...(scope.ids ? { id: { in: scope.ids } } : {}),
    ...(scope.nameContains ? { name: { contains: scope.nameContains, mode: "insensitive" as const } } : {}),
  };
  const campaignNames = async (ids: string[]) =>
    new Map(
      (await db.adCampaign.findMany({ where: { id: { in: [...new Set(ids)] }, workspaceId }, select: { id: true, name: true } })).map((c) => [c.id, c.name]),
    );
  if (scope.level === "campaigns") {
    const rows = await db.adCampaign.findMany({ where, orderBy: { createdAt: "asc" } });
    return rows.map((r) => ({ id: r.id, level: "campaigns", name: r.name, campaignName: r.name, platform: r.platform, status: r.status, budget: null }));
  }
  if (scope.level === "ad_sets") {
    const rows = await db.adSet.findMany({ where, orderBy: { createdAt: "asc" } });
    const names = await campaignNames(rows.map((r) => r.campaignId));
    return rows.map((r) => ({
      id: r.id,
      level: "ad_sets",
      name: r.name,
      campaignName: names.get(r.campaignId) ?? "",
      platform: r.platform,
      status: r.status,
      budget: { type: r.budgetType, amountMinor: r.budgetMinor },
    }));
  }
  const rows = await db.ad.findMany({ where, orderBy: { createdAt: "asc" } });
  const names = await campaignNames(rows.map((r) => r.campaignId));
  return rows.map((r) => ({
    id: r.id,
    level: "ads",
    name: r.name,
    campaignName: names.get(r.campaignId) ?? "",
    platform: r.platform,
    status: r.status,
    budget: null,
  }));
}

interface Totals {
  impressions: number;
  reach: number;
  clicks: number;
  spendMinor: number;
  conversions: number;
  valueMinor: number;
  frequency: number | null;
}

/**
 * Reads the scope's objects and their metrics over the window, through the platform contract
 * (getDailyInsights per ad, summed to the scope's level). Days are the ad account's days.
 */
export async function readScope(principal: Pick<Principal, "workspaceId">, definition: Pick<RuleDefinition, "scope" | "window">): Promise<ScopeReading> {
  const objects = await scopedObjects(principal.workspaceId, definition.scope);
  const totals = new Map<string, Totals>(
    objects.map((o) => [o.id, { impressions: 0, reach: 0, clicks: 0, spendMinor: 0, conversions: 0, valueMinor: 0, frequency: null }]),
  );
  let now: Date | null = null;
  let window: ScopeReading["window"] = null;
  let currency: string | null = null;
  const db = getDb();
  for (const platform of ["platform_a", "platform_b"] as Platform[]) {
    const mine = objects.filter((o) => o.platform === platform);
    // Without objects there, the account still gives the clock and the window (one clock for every run of the rule).
    if (!mine.length && !(await getAdAccount(principal.workspaceId, platform))) continue;
    const ids = mine.map((o) => o.id);
    const level = definition.scope.level;
    // The ads under the objects, and which object each sums into.
    const ads = await db.ad.findMany({
      where: {
        workspaceId: principal.workspaceId,
        ...(level === "ads" ? { id: { in: ids } } : level === "ad_sets" ? { adSetId: { in: ids } } : { campaignId: { in: ids } }),
      },
      select: { id: true, externalId: true, adSetId: true, campaignId: true },
    });
    const { account, api } = await platformFor(principal, platform);
    const info = await withBusyRetry(() => api.getAccount(account));
    const clock = new Date(info.now);
    if (!now || clock > now) now = clock;
    currency ??= info.currency;
    const since = daysBefore(info.today, WINDOW_DAYS[definition.window] - 1);
    window ??= { since, until: info.today };
    if (!ads.length) continue;
    // Each ad's numbers come from its campaign's account, which need not be today's default.
    const rows: DailyInsight[] = [];
    for (const [adAccountId, mine] of await adsByAccount(principal, ads)) {
      const own = adAccountId === account.id ? { account, api } : await platformForAccount(principal, adAccountId);
      rows.push(
        ...(await withBusyRetry(() => own.api.getDailyInsights(own.account, { since, until: info.today, adExternalIds: mine.map((a) => a.externalId) }))),
      );
    }
    const ownerOf = new Map(ads.map((a) => [a.externalId, level === "ads" ? a.id : level === "ad_sets" ? a.adSetId : a.campaignId]));
    // Frequency is cumulative per ad: its latest day in the window counts, and an object shows its most-shown ad's.
    const latest = new Map<string, DailyInsight>();
    for (const row of rows) {
      const owner = ownerOf.get(row.adExternalId);
      const t = owner ? totals.get(owner) : undefined;
      if (!t) continue;
      t.impressions += row.impressions;
      t.reach += row.reach;
      t.clicks += row.clicks;
      t.spendMinor += row.spendMinor;
      t.conversions += row.conversions;
      t.valueMinor += row.conversionValueMinor;
      const prev = latest.get(row.adExternalId);
      if (!prev || row.date > prev.date) latest.set(row.adExternalId, row);
    }
    for (const [externalId, row] of latest) {
      const t = totals.get(ownerOf.get(externalId)!)!;
      t.frequency = Math.max(t.frequency ?? 0, row.frequency);
    }
  }
  return { objects: objects.map((object) => ({ object, metrics: metricsOf(totals.get(object.id)!, currency) })), now: now ?? new Date(), window, currency };
}

const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Money in the account currency's major units; ratios null when their denominator is zero (a condition on them does not hold). */
export function metricsOf(t: Totals, currency: string | null): Metrics {
  const spend = toMajor(t.spendMinor, currency);
  return {
    spend: round(spend, 2),
    impressions: t.impressions,
    reach: t.reach,
    clicks: t.clicks,
    ctr: t.impressions ? round((t.clicks / t.impressions) * 100) : null,
    cpc: t.clicks ? round(spend / t.clicks) : null,
    cpm: t.impressions ? round((spend / t.impressions) * 1000) : null,
    conversions: t.conversions,
    cpa: t.conversions ? round(spend / t.conversions) : null,
    conversion_value: round(toMajor(t.valueMinor, currency), 2),
    roas: t.spendMinor ? round(t.valueMinor / t.spendMinor) : null,
    frequency: t.frequency === null ? null : round(t.frequency),
  };
}
