import type { Principal } from "@/lib/auth/principal";
import { type Figures, figuresFromSums } from "./figures";
import { invalidArgument } from "@/lib/ads/lookups";
import { toMajor } from "@/lib/money";
import { getDb, queryRows } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PerformanceLabel } from "./labels";
import type { Platform } from "@/lib/generated/prisma/enums";
import { accountCurrencies, rollupClock } from "./rollup-clock";
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

/** The objects' names and the platforms they are on (an ad, ad set or campaign: its account's; a creative: its ads'). */
async function objectsOf(workspaceId: string, level: InsightLevel, ids: string[]): Promise<Map<string, { name: string; platforms: Platform[] }>> {
  const db = getDb();
  const where = { id: { in: ids }, workspaceId };
  const select = { id: true, name: true, platform: true } as const;
  if (level !== "creative") {
    const rows =
      level === "ad"
        ? await db.ad.findMany({ where, select })
        : level === "ad_set"
          ? await db.adSet.findMany({ where, select })
          : await db.adCampaign.findMany({ where, select });
    return new Map(rows.map((r) => [r.id, { name: r.name, platforms: [r.platform] }]));
  }
  const creatives = await db.creative.findMany({ where, select: { id: true, fileName: true } });
  const ads = await db.ad.groupBy({ by: ["creativeId", "platform"], where: { workspaceId, creativeId: { in: ids } }, orderBy: { platform: "asc" } });
  return new Map(creatives.map((c) => [c.id, { name: c.fileName, platforms: ads.filter((a) => a.creativeId === c.id).map((a) => a.platform) }]));
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
    const top = await queryRows<{ id: string }>(
      `SELECT ${column} AS id FROM ad_daily_insights WHERE "workspaceId" = $1 AND date BETWEEN $2 AND $3 GROUP BY ${column} ORDER BY sum("spendMinor") DESC, ${column} LIMIT ${MAX_OBJECTS}`,
      [principal.workspaceId, since, until],
    );
    ids = top.map((t) => t.id);
  }
  const answer = (rows: InsightRow[]) => ({ level: input.level, since, until, currency: sharedCurrency(rows), rows });
  if (!ids.length) return answer([]);
  const currencies = await accountCurrencies(principal.workspaceId);
  if (input.breakdown === "hour") return answer(await hourlyRows(principal.workspaceId, input.level, ids, since, until, currencies));
  const daily = input.breakdown === "day";
  // Grouped by platform too: each ad account's money stays in its own currency (a creative's two accounts are two rows).
  const sums = await queryRows<Record<string, string | number | null>>(
    `SELECT ${column} AS id, platform::text AS platform, ${daily ? "date" : "NULL::text AS date"},
            sum(impressions)::float8 AS impressions, sum(clicks)::float8 AS clicks, sum("spendMinor")::float8 AS spend,
            sum(conversions)::float8 AS conversions, sum("conversionValueMinor")::float8 AS value,
            (sum(frequency * impressions) / nullif(sum(impressions), 0))::float8 AS frequency
       FROM ad_daily_insights WHERE "workspaceId" = $1 AND ${column} = ANY($2::text[]) AND date BETWEEN $3 AND $4
      GROUP BY ${column}, platform${daily ? ", date" : ""} ORDER BY ${column}, platform${daily ? ", date" : ""}`,
    [principal.workspaceId, ids, since, until],
  );
  const objects = await objectsOf(principal.workspaceId, input.level, ids);
  const rows: InsightRow[] = sums.map((s) => ({
    id: String(s.id),
    name: objects.get(String(s.id))?.name ?? String(s.id),
    ...accountOf(s, currencies),
    date: s.date === null ? null : String(s.date),
    ...figuresOf(s, currencies[s.platform as Platform]),
    frequency: s.frequency === null ? null : Math.round(Number(s.frequency) * 100) / 100,
  }));
  // Objects asked for by id but without delivery in the range answer zeros (totals only), per platform they are on.
  if (!daily)
    for (const id of ids) {
      if (rows.some((r) => r.id === id)) continue;
      const object = objects.get(id);
      const platforms: (Platform | null)[] = object?.platforms.length ? object.platforms : [null];
      for (const platform of platforms)
        rows.push({
          id,
          name: object?.name ?? id,
          platform,
          currency: platform ? currencies[platform] : null,
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

/** Per object, platform, day and hour from ad_hourly_insights (the live platforms' hourly breakdowns; no frequency by hour). */
async function hourlyRows(
  workspaceId: string,
  level: InsightLevel,
  ids: string[],
  since: string,
  until: string,
  currencies: Record<Platform, string>,
): Promise<InsightRow[]> {
  const column = COLUMN[level];
  const sums = await queryRows<Record<string, string | number>>(
    `SELECT ${column} AS id, platform::text AS platform, date, hour, sum(impressions)::float8 AS impressions, sum(clicks)::float8 AS clicks, sum("spendMinor")::float8 AS spend,
            sum(conversions)::float8 AS conversions, sum("conversionValueMinor")::float8 AS value
       FROM ad_hourly_insights WHERE "workspaceId" = $1 AND ${column} = ANY($2::text[]) AND date BETWEEN $3 AND $4
      GROUP BY ${column}, platform, date, hour ORDER BY ${column}, platform, date, hour`,
    [workspaceId, ids, since, until],
  );
  const names = await namesOf(workspaceId, level, ids);
  return sums.map((s) => ({
    id: String(s.id),
    name: names.get(String(s.id)) ?? String(s.id),
    ...accountOf(s, currencies),
    date: String(s.date),
    hour: Number(s.hour),
    ...figuresOf(s, currencies[s.platform as Platform]),
    frequency: null,
  }));
}

/** An insights query row's ad account: its platform and that account's currency. */
function accountOf(s: Record<string, string | number | null>, currencies: Record<Platform, string>): Pick<InsightRow, "platform" | "currency"> {
  const platform = s.platform as Platform;
  return { platform, currency: currencies[platform] };
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
  const rows = await db.creativePerformance.findMany({
    where: { workspaceId: principal.workspaceId, ...(input.label ? { label: input.label } : {}) },
    orderBy,
    take: input.limit,
  });
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
