import type { Principal } from "@/lib/auth/principal";
import { type Figures, figuresFromSums } from "./figures";
import { invalidArgument } from "@/lib/ads/lookups";
import { toMajor } from "@/lib/money";
import { getDb, queryRows } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PerformanceLabel } from "./labels";
import type { Platform } from "@/lib/generated/prisma/enums";
import { type AccountCurrencies, accountCurrencyTable, adAccountCurrencies, rollupClock } from "./rollup-clock";
import { rollupHealth, type RollupHealth } from "./rollup-status";
import { addDays, daysBetween, WINDOW_DAYS } from "./window";

export const INSIGHT_LEVELS = ["ad", "ad_set", "campaign", "creative"] as const;
export type InsightLevel = (typeof INSIGHT_LEVELS)[number];
const COLUMN: Record<InsightLevel, string> = { ad: `"adId"`, ad_set: `"adSetId"`, campaign: `"campaignId"`, creative: `"creativeId"` };
export const MAX_RANGE_DAYS = 366;
const MAX_OBJECTS = 50;

export interface InsightRow extends Figures {
  id: string;
  name: string;
  /** The ad account's platform; a creative with ads on both has a row per platform (null: a creative without ads). */
  platform: Platform | null;
  /** The ad account (list_connected_ad_accounts' id) the row's delivery is on: a row per account, also of one platform. */
  adAccountId: string | null;
  /** The ad account's currency, which the row's money is in (never summed across accounts). */
  currency: string | null;
  /** The day (account time zone) with a daily or hourly breakdown; null for the range's total. */
  date: string | null;
  /** The hour (0-23, account time zone) with the hourly breakdown. */
  hour?: number;
  frequency: number | null;
}

async function namesOf(workspaceId: string, level: InsightLevel, ids: string[]): Promise<Map<string, string>> {
  return new Map([...(await objectsOf(workspaceId, level, ids))].map(([id, o]) => [id, o.name]));
}

type AccountRef = { platform: Platform; adAccountId: string };

/** The objects' names and the ad accounts they are on (an ad, ad set or campaign: its campaign's; a creative: its ads'). */
async function objectsOf(workspaceId: string, level: InsightLevel, ids: string[]): Promise<Map<string, { name: string; accounts: AccountRef[] }>> {
  const db = getDb();
  const where = { id: { in: ids }, workspaceId };
  if (level === "campaign") {
    const rows = await db.adCampaign.findMany({ where, select: { id: true, name: true, platform: true, adAccountId: true } });
    return new Map(rows.map((r) => [r.id, { name: r.name, accounts: [{ platform: r.platform, adAccountId: r.adAccountId }] }]));
  }
  const select = { id: true, name: true, campaignId: true } as const;
  const rows: { id: string; name: string; campaignId: string }[] =
    level === "creative"
      ? (await db.ad.groupBy({ by: ["creativeId", "campaignId"], where: { workspaceId, creativeId: { in: ids } }, orderBy: { campaignId: "asc" } })).map(
          (a) => ({ id: a.creativeId, name: "", campaignId: a.campaignId }),
        )
      : level === "ad"
        ? await db.ad.findMany({ where, select })
        : await db.adSet.findMany({ where, select });
  const campaigns = await db.adCampaign.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.campaignId))] }, workspaceId },
    select: { id: true, platform: true, adAccountId: true },
  });
  const accountsOf = (id: string): AccountRef[] => {
    const refs = rows.filter((r) => r.id === id).flatMap((r) => campaigns.filter((c) => c.id === r.campaignId));
    const unique = [...new Map(refs.map((c) => [c.adAccountId, { platform: c.platform, adAccountId: c.adAccountId }])).values()];
    return unique.sort((a, b) => a.platform.localeCompare(b.platform) || a.adAccountId.localeCompare(b.adAccountId));
  };
  if (level !== "creative") return new Map(rows.map((r) => [r.id, { name: r.name, accounts: accountsOf(r.id) }]));
  const creatives = await db.creative.findMany({ where, select: { id: true, fileName: true } });
  return new Map(creatives.map((c) => [c.id, { name: c.fileName, accounts: accountsOf(c.id) }]));
}

/** The currency all rows' money is in, or null when they are in different currencies (or there are none). */
function sharedCurrency(rows: InsightRow[]): string | null {
  const currencies = new Set(rows.map((r) => r.currency).filter((c) => c !== null));
  return currencies.size === 1 ? [...currencies][0]! : null;
}

/**
 * Stored insights (what the hourly rollup pulled) summed per ad, ad set, campaign or creative over
 * a range of days, as totals or per day. Without ids: the level's objects with delivery in the
 * range, most spend first (up to 50).
 */
export async function getInsights(
  principal: Principal,
  input: { level: InsightLevel; ids?: string[]; since?: string; until?: string; breakdown?: "day" | "hour" | "none" },
): Promise<{ level: InsightLevel; since: string; until: string; currency: string | null; rows: InsightRow[] }> {
  const { today } = await rollupClock(principal.workspaceId);
  const until = input.until ?? today;
  const since = input.since ?? addDays(until, -(WINDOW_DAYS - 1));
  if (since > until) throw invalidArgument("since must not be after until");
  if (daysBetween(since, until) >= MAX_RANGE_DAYS) throw invalidArgument(`the range may span at most ${MAX_RANGE_DAYS} days`);
  const column = COLUMN[input.level];
  let ids = input.ids ? [...new Set(input.ids)] : undefined;
  if (ids) {
    const names = await namesOf(principal.workspaceId, input.level, ids);
    const missing = ids.find((id) => !names.has(id));
    if (missing) throw notFound(`${input.level === "ad_set" ? "Ad set" : input.level[0]!.toUpperCase() + input.level.slice(1)} ${missing}`);
  } else {
    ids = await mostSpendFirst(principal.workspaceId, column, since, until);
  }
  const answer = (rows: InsightRow[]) => ({ level: input.level, since, until, currency: sharedCurrency(rows), rows });
  if (!ids.length) return answer([]);
  const currencies = await adAccountCurrencies(principal.workspaceId);
  if (input.breakdown === "hour") return answer(await hourlyRows(principal.workspaceId, input.level, ids, since, until, currencies));
  const daily = input.breakdown === "day";
  // Grouped by ad account too: each account's money stays in its own currency (a creative's two accounts are two rows).
  const sums = await queryRows<Record<string, string | number | null>>(
    `SELECT i.${column} AS id, i.platform::text AS platform, k."adAccountId", ${daily ? "i.date" : "NULL::text AS date"},
            sum(i.impressions)::float8 AS impressions, sum(i.clicks)::float8 AS clicks, sum(i."spendMinor")::float8 AS spend,
            sum(i.conversions)::float8 AS conversions, sum(i."conversionValueMinor")::float8 AS value,
            (sum(i.frequency * i.impressions) / nullif(sum(i.impressions), 0))::float8 AS frequency
       FROM ad_daily_insights i LEFT JOIN ad_campaigns k ON k.id = i."campaignId"
      WHERE i."workspaceId" = $1 AND i.${column} = ANY($2::text[]) AND i.date BETWEEN $3 AND $4
      GROUP BY i.${column}, i.platform, k."adAccountId"${daily ? ", i.date" : ""}
      ORDER BY i.${column}, i.platform, k."adAccountId"${daily ? ", i.date" : ""}`,
    [principal.workspaceId, ids, since, until],
  );
  const objects = await objectsOf(principal.workspaceId, input.level, ids);
  const rows: InsightRow[] = sums.map((s) => ({
    id: String(s.id),
    name: objects.get(String(s.id))?.name ?? String(s.id),
    ...accountOf(s, currencies),
    date: s.date === null ? null : String(s.date),
    frequency: s.frequency === null ? null : Math.round(Number(s.frequency) * 100) / 100,
  }));
  // Objects asked for by id but without delivery in the range answer zeros (totals only), per ad account they are on.
  if (!daily)
    for (const id of ids) {
      if (rows.some((r) => r.id === id)) continue;
      const object = objects.get(id);
      const accounts: (AccountRef | null)[] = object?.accounts.length ? object.accounts : [null];
      for (const account of accounts)
        rows.push({
          id,
          name: object?.name ?? id,
          platform: account?.platform ?? null,
          adAccountId: account?.adAccountId ?? null,
          currency: account ? currencies(account.adAccountId, account.platform) : null,
          date: null,
          impressions: 0,
          clicks: 0,
          spend: 0,
          conversions: 0,
          conversionValue: 0,
          ctr: null,
          cpa: null,
          roas: null,
          frequency: null,
        });
    }
  return answer(rows);
}

/**
 * The level's objects with delivery in the range, most spend first, up to 50: amounts compare only within a currency,
 * so the currencies come in the order of their delivery (more impressions first) and the objects by spend inside each;
 * an object delivering in two currencies takes its first place. One currency: by spend alone.
 */
async function mostSpendFirst(workspaceId: string, column: string, since: string, until: string): Promise<string[]> {
  const { accounts, byPlatform } = await accountCurrencyTable(workspaceId);
  const top = await queryRows<{ id: string }>(
    `WITH s AS (
       SELECT i.${column} AS id, coalesce(m.currency, CASE i.platform WHEN 'platform_a' THEN $4 ELSE $5 END) AS currency,
              sum(i."spendMinor") AS spend, sum(i.impressions) AS impressions
         FROM ad_daily_insights i
         LEFT JOIN ad_campaigns k ON k.id = i."campaignId"
         LEFT JOIN unnest($6::text[], $7::text[]) AS m(account, currency) ON m.account = k."adAccountId"
        WHERE i."workspaceId" = $1 AND i.date BETWEEN $2 AND $3
        GROUP BY 1, 2
     ), grouped AS (
       SELECT id, currency, spend, sum(impressions) OVER (PARTITION BY currency) AS "groupImpressions" FROM s
     ), ranked AS (
       SELECT id, row_number() OVER (ORDER BY "groupImpressions" DESC, currency, spend DESC, id) AS pos FROM grouped
     )
     SELECT id FROM ranked GROUP BY id ORDER BY min(pos) LIMIT ${MAX_OBJECTS}`,
    [workspaceId, since, until, byPlatform.platform_a, byPlatform.platform_b, accounts.map((a) => a.id), accounts.map((a) => a.currency)],
  );
  return top.map((t) => t.id);
}

/** Per object, ad account, day and hour from ad_hourly_insights (the live platforms' hourly breakdowns; no frequency by hour). */
async function hourlyRows(
  workspaceId: string,
  level: InsightLevel,
  ids: string[],
  since: string,
  until: string,
  currencies: AccountCurrencies,
): Promise<InsightRow[]> {
  // Hourly rows name their ad only: its campaign (and ad set) come from the ad.
  const column = level === "ad" || level === "creative" ? `h.${COLUMN[level]}` : `a.${COLUMN[level]}`;
  const sums = await queryRows<Record<string, string | number | null>>(
    `SELECT ${column} AS id, h.platform::text AS platform, k."adAccountId", h.date, h.hour, sum(h.impressions)::float8 AS impressions, sum(h.clicks)::float8 AS clicks,
            sum(h."spendMinor")::float8 AS spend, sum(h.conversions)::float8 AS conversions, sum(h."conversionValueMinor")::float8 AS value
       FROM ad_hourly_insights h LEFT JOIN ads a ON a.id = h."adId" LEFT JOIN ad_campaigns k ON k.id = a."campaignId"
      WHERE h."workspaceId" = $1 AND ${column} = ANY($2::text[]) AND h.date BETWEEN $3 AND $4
      GROUP BY ${column}, h.platform, k."adAccountId", h.date, h.hour ORDER BY ${column}, h.platform, k."adAccountId", h.date, h.hour`,
    [workspaceId, ids, since, until],
  );
  const names = await namesOf(workspaceId, level, ids);
  return sums.map((s) => ({
    id: String(s.id),
    name: names.get(String(s.id)) ?? String(s.id),
    ...accountOf(s, currencies),
    date: String(s.date),
    hour: Number(s.hour),
    frequency: null,
  }));
}

/** An insights query row's ad account (its platform, id and currency) and its figures in that currency. */
function accountOf(s: Record<string, string | number | null>, currencies: AccountCurrencies) {
  const platform = s.platform as Platform;
  const adAccountId = s.adAccountId === null ? null : String(s.adAccountId);
  const currency = currencies(adAccountId, platform);
  return { platform, adAccountId, currency, ...figuresOf(s, currency) };
}

/** An insights query row's figures: its summed columns (minor units) as the figures every view shows. */
function figuresOf(s: Record<string, string | number | null>, currency: string) {
  return figuresFromSums(
    {
      impressions: Number(s.impressions),
      clicks: Number(s.clicks),
      spendMinor: Number(s.spend),
      conversions: Number(s.conversions),
      valueMinor: Number(s.value),
    },
    currency,
  );
}

export const PERFORMANCE_SORTS = ["spend", "impressions", "clicks", "conversions", "ctr", "cpa", "roas", "frequency", "label"] as const;
export type PerformanceSort = (typeof PERFORMANCE_SORTS)[number];

export interface CreativePerformanceOut {
  creativeId: string;
  fileName: string;
  kind: "image" | "video";
  label: PerformanceLabel;
  reason: string;
  labelChangedAt: string | null;
  /** The currency spend, conversionValue and cpa are in: the creative's primary currency group's. */
  currency: string;
  impressions: number;
  clicks: number;
  spend: number;
  conversions: number;
  conversionValue: number;
  ctr: number | null;
  cpa: number | null;
  roas: number | null;
  frequency: number | null;
  recentCtr: number | null;
  earlierCtr: number | null;
  liveAds: number;
  updatedAt: string;
}

/**
 * Creatives sorted by an amount (spend, CPA), compared only within a currency: the currencies in the order of their
 * creatives' impressions (more first), the amounts inside each. One currency: by the amount alone, as before.
 */
async function byAmountWithinCurrency(where: { workspaceId: string; label?: string }, field: "spendMinor" | "cpa", direction: "asc" | "desc", limit: number) {
  const ordered = await queryRows<{ creativeId: string }>(
    `SELECT "creativeId" FROM creative_performance WHERE "workspaceId" = $1 AND ($2::text IS NULL OR label = $2)
      ORDER BY sum(impressions) OVER (PARTITION BY currency) DESC, currency, "${field}" ${direction === "asc" ? "ASC" : "DESC"} NULLS LAST, "creativeId"
      LIMIT $3`,
    [where.workspaceId, where.label ?? null, limit],
  );
  const rows = await getDb().creativePerformance.findMany({ where: { workspaceId: where.workspaceId, creativeId: { in: ordered.map((o) => o.creativeId) } } });
  const position = new Map(ordered.map((o, i) => [o.creativeId, i]));
  return rows.sort((a, b) => position.get(a.creativeId)! - position.get(b.creativeId)!);
}

/** The creatives' last-30-days figures and labels as the last rollup left them. */
export async function listCreativePerformance(
  principal: Principal,
  input: { label?: PerformanceLabel; sort?: PerformanceSort; order?: "asc" | "desc"; limit: number },
): Promise<{ creatives: CreativePerformanceOut[]; lastRollupAt: string | null; rollup: RollupHealth }> {
  const db = getDb();
  const sort = input.sort ?? "spend";
  const field = sort === "spend" ? "spendMinor" : sort;
  const direction = input.order ?? "desc";
  // Only the ratios can be missing (no impressions, conversions or spend yet): those sort last.
  const nullable = sort === "ctr" || sort === "cpa" || sort === "roas" || sort === "frequency";
  const orderBy: Prisma.CreativePerformanceOrderByWithRelationInput[] = [
    { [field]: nullable ? { sort: direction, nulls: "last" } : direction },
    { creativeId: "asc" },
  ];
  const where = { workspaceId: principal.workspaceId, ...(input.label ? { label: input.label } : {}) };
  const rows =
    sort === "spend" || sort === "cpa"
      ? await byAmountWithinCurrency(where, sort === "spend" ? "spendMinor" : "cpa", direction, input.limit)
      : await db.creativePerformance.findMany({ where, orderBy, take: input.limit });
  const ids = rows.map((r) => r.creativeId);
  const creatives = await db.creative.findMany({ where: { id: { in: ids } }, select: { id: true, fileName: true, kind: true } });
  const live = await db.ad.groupBy({
    by: ["creativeId"],
    where: { workspaceId: principal.workspaceId, creativeId: { in: ids }, status: "active" },
    _count: { _all: true },
  });
  const rollup = await rollupHealth(principal.workspaceId);
  const fallbackCurrency = (await rollupClock(principal.workspaceId)).currency;
  return {
    lastRollupAt:
      rollup.accounts
        .map((a) => a.lastRunAt)
        .sort()
        .at(-1) ?? null,
    rollup,
    creatives: rows.map((r) => {
      const c = creatives.find((x) => x.id === r.creativeId);
      const currency = r.currency ?? fallbackCurrency;
      return {
        creativeId: r.creativeId,
        fileName: c?.fileName ?? "(deleted creative)",
        kind: c?.kind ?? "image",
        label: r.label as PerformanceLabel,
        reason: r.reason,
        labelChangedAt: r.labelChangedAt?.toISOString() ?? null,
        currency,
        impressions: r.impressions,
        clicks: r.clicks,
        spend: toMajor(r.spendMinor, currency),
        conversions: r.conversions,
        conversionValue: toMajor(r.conversionValueMinor, currency),
        ctr: r.ctr,
        cpa: r.cpa === null ? null : toMajor(Math.round(r.cpa), currency),
        roas: r.roas,
        frequency: r.frequency,
        recentCtr: r.recentCtr,
        earlierCtr: r.earlierCtr,
        liveAds: live.find((l) => l.creativeId === r.creativeId)?._count._all ?? 0,
        updatedAt: r.updatedAt.toISOString(),
      };
    }),
  };
}
