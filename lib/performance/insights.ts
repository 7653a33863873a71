import type { Principal } from "@/lib/auth/principal";
import { type Figures, figuresFromSums } from "./figures";
import { invalidArgument } from "@/lib/ads/lookups";
import { toMajor } from "@/lib/money";
import { getDb, queryRows } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PerformanceLabel } from "./labels";
import { rollupClock } from "./rollup-clock";
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
  /** The day (account time zone) with a daily or hourly breakdown; null for the range's total. */
  date: string | null;
  /** The hour (0-23, account time zone) with the hourly breakdown. */
  hour?: number;
  frequency: number | null;
}

async function namesOf(workspaceId: string, level: InsightLevel, ids: string[]): Promise<Map<string, string>> {
  const db = getDb();
  const where = { id: { in: ids }, workspaceId };
  const rows =
    level === "ad"
      ? await db.ad.findMany({ where, select: { id: true, name: true } })
      : level === "ad_set"
        ? await db.adSet.findMany({ where, select: { id: true, name: true } })
        : level === "campaign"
          ? await db.adCampaign.findMany({ where, select: { id: true, name: true } })
          : (await db.creative.findMany({ where, select: { id: true, fileName: true } })).map((c) => ({ id: c.id, name: c.fileName }));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Stored insights (what the hourly rollup pulled) summed per ad, ad set, campaign or creative over
 * a range of days, as totals or per day. Without ids: the level's objects with delivery in the
 * range, most spend first (up to 50).
 */
export async function getInsights(
  principal: Principal,
  input: { level: InsightLevel; ids?: string[]; since?: string; until?: string; breakdown?: "day" | "hour" | "none" },
): Promise<{ level: InsightLevel; since: string; until: string; currency: string; rows: InsightRow[] }> {
  const { today, currency } = await rollupClock(principal.workspaceId);
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
  if (!ids.length) return { level: input.level, since, until, currency, rows: [] };
  if (input.breakdown === "hour")
    return { level: input.level, since, until, currency, rows: await hourlyRows(principal.workspaceId, input.level, ids, since, until, currency) };
  const daily = input.breakdown === "day";
  const sums = await queryRows<Record<string, string | number | null>>(
    `SELECT ${column} AS id, ${daily ? "date" : "NULL::text AS date"},
            sum(impressions)::float8 AS impressions, sum(clicks)::float8 AS clicks, sum("spendMinor")::float8 AS spend,
            sum(conversions)::float8 AS conversions, sum("conversionValueMinor")::float8 AS value,
            (sum(frequency * impressions) / nullif(sum(impressions), 0))::float8 AS frequency
       FROM ad_daily_insights WHERE "workspaceId" = $1 AND ${column} = ANY($2::text[]) AND date BETWEEN $3 AND $4
      GROUP BY ${column}${daily ? ", date" : ""} ORDER BY ${column}${daily ? ", date" : ""}`,
    [principal.workspaceId, ids, since, until],
  );
  const names = await namesOf(principal.workspaceId, input.level, ids);
  const rows: InsightRow[] = sums.map((s) => ({
    id: String(s.id),
    name: names.get(String(s.id)) ?? String(s.id),
    date: s.date === null ? null : String(s.date),
    ...figuresOf(s, currency),
    frequency: s.frequency === null ? null : Math.round(Number(s.frequency) * 100) / 100,
  }));
  // Objects asked for by id but without delivery in the range answer zeros (totals only).
  if (!daily)
    for (const id of ids)
      if (!rows.some((r) => r.id === id))
        rows.push({
          id,
          name: names.get(id) ?? id,
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
  return { level: input.level, since, until, currency, rows };
}

/** Per object, day and hour from ad_hourly_insights (the live platforms' hourly breakdowns; no frequency by hour). */
async function hourlyRows(workspaceId: string, level: InsightLevel, ids: string[], since: string, until: string, currency: string): Promise<InsightRow[]> {
  const column = COLUMN[level];
  const sums = await queryRows<Record<string, string | number>>(
    `SELECT ${column} AS id, date, hour, sum(impressions)::float8 AS impressions, sum(clicks)::float8 AS clicks, sum("spendMinor")::float8 AS spend,
            sum(conversions)::float8 AS conversions, sum("conversionValueMinor")::float8 AS value
       FROM ad_hourly_insights WHERE "workspaceId" = $1 AND ${column} = ANY($2::text[]) AND date BETWEEN $3 AND $4
      GROUP BY ${column}, date, hour ORDER BY ${column}, date, hour`,
    [workspaceId, ids, since, until],
  );
  const names = await namesOf(workspaceId, level, ids);
  return sums.map((s) => ({
    id: String(s.id),
    name: names.get(String(s.id)) ?? String(s.id),
    date: String(s.date),
    hour: Number(s.hour),
    ...figuresOf(s, currency),
    frequency: null,
  }));
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
  const { currency } = await rollupClock(principal.workspaceId);
  return {
    lastRollupAt:
      rollup.accounts
        .map((a) => a.lastRunAt)
        .sort()
        .at(-1) ?? null,
    rollup,
    creatives: rows.map((r) => {
      const c = creatives.find((x) => x.id === r.creativeId);
      return {
        creativeId: r.creativeId,
        fileName: c?.fileName ?? "(deleted creative)",
        kind: c?.kind ?? "image",
        label: r.label as PerformanceLabel,
        reason: r.reason,
        labelChangedAt: r.labelChangedAt?.toISOString() ?? null,
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
