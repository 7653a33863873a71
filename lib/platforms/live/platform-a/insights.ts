import type { DailyInsight, HourlyInsight, InsightsQuery } from "../../ads-types";
import { type GraphParams, graphList } from "./graph";
import type { MetaAccount } from "./ads";
import { toMinor } from "./naming";

/**
 * Per ad per day from GET /act_<id>/insights (level=ad, time_increment=1, time_range in the account's
 * time zone, which is how Meta reports days), deleted and archived ads included (adFilter). Reach and frequency are unique-people metrics Meta
 * does not break down by hour, so the daily rows come from this daily read (today's partial row
 * re-read every hour) and the hourly rows (getHourlyInsights) hold the additive metrics only; the
 * cumulative frequency per ad comes from a second, lifetime (date_preset=maximum) read of the same ads.
 */

/** Purchases (omni_purchase already includes purchase) plus leads. */
function pick(actions: any[] | undefined): number {
  const byType = new Map((actions ?? []).map((x: any) => [String(x.action_type), Number(x.value ?? 0)]));
  const purchase = byType.get("omni_purchase") ?? byType.get("purchase") ?? 0;
  const lead = byType.get("lead") ?? byType.get("onsite_conversion.lead_grouped") ?? 0;
  return purchase + lead;
}

/**
 * Every effective_status an ad can have (Ad reference). A level=ad report leaves out deleted (and archived) ads unless
 * `ad.effective_status` asks for them ("Manage your ad object's status": "act_<AD_ACCOUNT_ID>/insights?level=ad does not
 * return stats for the deleted object ... You can query insights for DELETED objects using the ad.effective_status
 * filter"): an ad deleted or archived during the period still spent, so every read asks for all of them.
 */
export const EVERY_AD_STATUS = [
  "ACTIVE",
  "PAUSED",
  "DELETED",
  "PENDING_REVIEW",
  "DISAPPROVED",
  "PREAPPROVED",
  "PENDING_BILLING_INFO",
  "CAMPAIGN_PAUSED",
  "ARCHIVED",
  "ADSET_PAUSED",
  "IN_PROCESS",
  "WITH_ISSUES",
] as const;

/** `filtering` of every insights read: every ad status, and the asked ads when there are some. */
function adFilter(query: InsightsQuery) {
  return {
    filtering: [
      { field: "ad.effective_status", operator: "IN", value: EVERY_AD_STATUS },
      ...(query.adExternalIds?.length ? [{ field: "ad.id", operator: "IN", value: query.adExternalIds }] : []),
    ],
  };
}

/** Insights are read whole: a capped read lost rows silently, and the rollup's cursor then moved past their days. */
const EVERY_ROW = Number.POSITIVE_INFINITY;

/** GET /act_<id>/insights at level=ad, every ad status (adFilter), every page: the reads below differ only in `params`. */
function adInsights(a: MetaAccount, query: InsightsQuery, params: GraphParams): Promise<any[]> {
  return graphList(`${a.accountId}/insights`, a.token, { level: "ad", ...params, ...adFilter(query) }, EVERY_ROW);
}

export async function getDailyInsights(a: MetaAccount, query: InsightsQuery): Promise<DailyInsight[]> {
  if (query.adExternalIds && query.adExternalIds.length === 0) return [];
  const days = await adInsights(a, query, {
    time_increment: 1,
    time_range: { since: query.since, until: query.until },
    fields: "ad_id,date_start,impressions,reach,clicks,spend,actions,action_values,account_currency",
  });
  if (!days.length) return [];
  const lifetime = await adInsights(a, query, { date_preset: "maximum", fields: "ad_id,frequency" });
  const frequency = new Map(lifetime.map((r) => [String(r.ad_id), Number(r.frequency ?? 0)]));
  return days.map((r) => {
    const currency = String(r.account_currency ?? "USD");
    const values = new Map((r.action_values ?? []).map((x: any) => [String(x.action_type), x.value]));
    return {
      adExternalId: String(r.ad_id),
      date: String(r.date_start),
      impressions: Number(r.impressions ?? 0),
      reach: Number(r.reach ?? 0),
      clicks: Number(r.clicks ?? 0),
      spendMinor: toMinor(r.spend, currency),
      conversions: Math.round(pick(r.actions)),
      conversionValueMinor: toMinor(values.get("omni_purchase") ?? values.get("purchase") ?? 0, currency),
      frequency: frequency.get(String(r.ad_id)) ?? 0,
    };
  });
}

/** Meta's hourly breakdown in the ad account's time zone (its days are the account's days too). */
export const HOURLY_BREAKDOWN = "hourly_stats_aggregated_by_advertiser_time_zone";

/**
 * Per ad per hour: GET /act_<id>/insights with `breakdowns=hourly_stats_aggregated_by_advertiser_time_zone`
 * (level=ad, time_increment=1, the day as time_range). Hourly breakdowns refuse unique fields (reach,
 * frequency), so only the additive ones are asked; each row names its hour as "HH:00:00 - HH:59:59".
 */
export async function getHourlyInsights(a: MetaAccount, query: InsightsQuery): Promise<HourlyInsight[]> {
  if (query.adExternalIds && query.adExternalIds.length === 0) return [];
  const rows = await adInsights(a, query, {
    time_increment: 1,
    time_range: { since: query.since, until: query.until },
    breakdowns: HOURLY_BREAKDOWN,
    fields: "ad_id,date_start,impressions,clicks,spend,actions,action_values,account_currency",
  });
  return rows.flatMap((r) => {
    const hour = Number(/^(\d{2}):/.exec(String(r[HOURLY_BREAKDOWN] ?? ""))?.[1]);
    if (!Number.isInteger(hour) || hour < 0 || hour > 23) return [];
    const currency = String(r.account_currency ?? "USD");
    const values = new Map((r.action_values ?? []).map((x: any) => [String(x.action_type), x.value]));
    return [
      {
        adExternalId: String(r.ad_id),
        date: String(r.date_start),
        hour,
        impressions: Number(r.impressions ?? 0),
        clicks: Number(r.clicks ?? 0),
        spendMinor: toMinor(r.spend, currency),
        conversions: Math.round(pick(r.actions)),
        conversionValueMinor: toMinor(values.get("omni_purchase") ?? values.get("purchase") ?? 0, currency),
      },
    ];
  });
}
