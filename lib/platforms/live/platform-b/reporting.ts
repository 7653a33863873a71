import { z } from "zod";
import type { DailyInsight, HourlyInsight, InsightsQuery } from "../../ads-types";
import { allPages, getData, id, pageInfo } from "./client";
import { toMinor, type TikTokAccount } from "./ads";

/**
 * Delivery per ad per day from the integrated report (/report/integrated/get/: report_type BASIC,
 * data_level AUCTION_AD, dimensions ad_id + stat_time_day; parameters as TikTok's OpenAPI file names them,
 * tiktok/tiktok-business-api-sdk yml_files/report_integrated_get.yml; metric names and the 30-day and
 * 1-day spans as bububa/tiktok-business model/report/{integrated_get,metrics}.go quote TikTok's reference). Days are the advertiser's days; today's
 * row grows through the day, so the hourly rollup re-reads it. TikTok answers metrics as strings.
 */
export const REPORT_METRICS = ["spend", "impressions", "reach", "clicks", "conversion", "frequency", "complete_payment", "value_per_complete_payment"];

const num = z.union([z.string(), z.number()]).transform((v) => (Number.isFinite(Number(v)) ? Number(v) : 0));
const reportRow = z.object({
  dimensions: z.object({ ad_id: id, stat_time_day: z.string() }),
  metrics: z.record(z.string(), num.optional()),
});
const reportPage = z.object({ list: z.array(reportRow), page_info: pageInfo.optional() });

/**
 * AUCTION_AD reports leave deleted ads out unless ad_status is STATUS_ALL (their default filter is
 * STATUS_NOT_DELETE), and a deleted ad's spend is still spend; optionally only some ads.
 */
function reportFiltering(adIds?: string[]) {
  return [
    { field_name: "ad_status", filter_type: "IN", filter_value: JSON.stringify(["STATUS_ALL"]) },
    ...(adIds ? [{ field_name: "ad_ids", filter_type: "IN", filter_value: JSON.stringify(adIds) }] : []),
  ];
}

/** The integrated report takes at most 30 days per query at day granularity. */
export const REPORT_MAX_DAYS = 30;
/** How far back a read goes at most (older days are clamped away rather than read in a hundred queries). */
export const REPORT_MAX_LOOKBACK_DAYS = 365;

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** [since, until] cut into windows of at most REPORT_MAX_DAYS days. */
export function reportWindows(since: string, until: string): { start: string; end: string }[] {
  const earliest = addDays(until, -(REPORT_MAX_LOOKBACK_DAYS - 1));
  const windows = [];
  for (let start = since < earliest ? earliest : since; start <= until; start = addDays(start, REPORT_MAX_DAYS)) {
    const end = addDays(start, REPORT_MAX_DAYS - 1);
    windows.push({ start, end: end < until ? end : until });
  }
  return windows;
}

/** Reports are read whole (allPages' default stops at 50 pages): a capped read lost rows silently. */
const EVERY_PAGE = Number.POSITIVE_INFINITY;

export async function getDailyInsights(token: string, a: TikTokAccount, query: InsightsQuery): Promise<DailyInsight[]> {
  if (query.adExternalIds && query.adExternalIds.length === 0) return [];
  const rows = [];
  for (const window of reportWindows(query.since, query.until)) {
    rows.push(
      ...(await allPages(
        (page) =>
          getData(
            token,
            "report/integrated/get/",
            {
              advertiser_id: a.advertiserId,
              report_type: "BASIC",
              data_level: "AUCTION_AD",
              dimensions: ["ad_id", "stat_time_day"],
              metrics: REPORT_METRICS,
              start_date: window.start,
              end_date: window.end,
              filtering: reportFiltering(query.adExternalIds),
              page,
              page_size: 1000,
            },
            reportPage,
            "the report",
          ),
        EVERY_PAGE,
      )),
    );
  }
  return rows
    .map((row) => {
      const m = row.metrics;
      const conversionValue = (m.complete_payment ?? 0) * (m.value_per_complete_payment ?? 0);
      return {
        adExternalId: row.dimensions.ad_id,
        date: row.dimensions.stat_time_day.slice(0, 10),
        impressions: Math.round(m.impressions ?? 0),
        reach: Math.round(m.reach ?? 0),
        clicks: Math.round(m.clicks ?? 0),
        spendMinor: toMinor(m.spend ?? 0, a.currency),
        conversions: Math.round(m.conversion ?? 0),
        conversionValueMinor: toMinor(conversionValue, a.currency),
        frequency: m.frequency ?? 0,
      };
    })
    .sort((x, y) => x.date.localeCompare(y.date) || x.adExternalId.localeCompare(y.adExternalId));
}

/** At hour granularity the report covers one day per query; reach and frequency are not asked (not additive by hour). */
export const HOURLY_METRICS = ["spend", "impressions", "clicks", "conversion", "complete_payment", "value_per_complete_payment"];

const hourlyRow = z.object({
  dimensions: z.object({ ad_id: id, stat_time_hour: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:/) }),
  metrics: z.record(z.string(), num.optional()),
});
const hourlyPage = z.object({ list: z.array(hourlyRow), page_info: pageInfo.optional() });

/** Per ad per hour from the integrated report (dimensions ad_id + stat_time_hour), one query per day. */
export async function getHourlyInsights(token: string, a: TikTokAccount, query: InsightsQuery): Promise<HourlyInsight[]> {
  if (query.adExternalIds && query.adExternalIds.length === 0) return [];
  const out: HourlyInsight[] = [];
  for (let day = query.since; day <= query.until; day = addDays(day, 1)) {
    const rows = await allPages(
      (page) =>
        getData(
          token,
          "report/integrated/get/",
          {
            advertiser_id: a.advertiserId,
            report_type: "BASIC",
            data_level: "AUCTION_AD",
            dimensions: ["ad_id", "stat_time_hour"],
            metrics: HOURLY_METRICS,
            start_date: day,
            end_date: day,
            filtering: reportFiltering(query.adExternalIds),
            page,
            page_size: 1000,
          },
          hourlyPage,
          "the hourly report",
        ),
      EVERY_PAGE,
    );
    for (const row of rows) {
      const m = row.metrics;
      out.push({
        adExternalId: row.dimensions.ad_id,
        date: row.dimensions.stat_time_hour.slice(0, 10),
        hour: Number(row.dimensions.stat_time_hour.slice(11, 13)),
        impressions: Math.round(m.impressions ?? 0),
        clicks: Math.round(m.clicks ?? 0),
        spendMinor: toMinor(m.spend ?? 0, a.currency),
        conversions: Math.round(m.conversion ?? 0),
        conversionValueMinor: toMinor((m.complete_payment ?? 0) * (m.value_per_complete_payment ?? 0), a.currency),
      });
    }
  }
  return out;
}
