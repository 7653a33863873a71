import { getDb, queryRows } from "@/lib/db/client";
import { addDays, daysBetween } from "./window";
import { type FigureSums, type Figures, figuresFromSums } from "./figures";
import { MAX_RANGE_DAYS } from "./insights";
import { type AccountIdentity, accountIdentities, accountOrder } from "./account-identity";

/** The Ads page's default range: the last 7 days of the ad account's clock, today included. */
export const RESULTS_DEFAULT_DAYS = 7;
/** Ads listed per ad set (most spend first); the ad set's and campaign's figures always count every ad. */
export const RESULTS_ADS_PER_AD_SET = 50;

export type ResultFigures = Figures;

export interface AdResult extends ResultFigures {
  id: string;
  name: string;
  status: string | null;
}
export interface AdSetResult extends ResultFigures {
  id: string;
  name: string;
  status: string | null;
  ads: AdResult[];
  /** Ads with delivery in the range not listed (beyond RESULTS_ADS_PER_AD_SET); their figures are in the ad set's. */
  moreAds: number;
}
export interface CampaignResult extends ResultFigures {
  id: string;
  name: string;
  objective: string | null;
  status: string | null;
  adSets: AdSetResult[];
}

/** An ad account the rollup has read: its own clock, time zone and currency, which its results are in. */
export interface ResultAccount extends AccountIdentity {
  timeZone: string;
  /** The account's current day at its last rollup: its clock. */
  today: string;
}

export interface AccountResults extends ResultAccount {
  since: string;
  until: string;
  totals: ResultFigures;
  campaigns: CampaignResult[];
}

export type ResultsRange = { since?: string; until?: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (s: string) => DAY.test(s) && addDays(s, 0) === s;

/** Why a range cannot be shown (a sentence for the page), or null when it can. */
export function rangeProblem(since: string, until: string): string | null {
  if (!isDay(since) || !isDay(until)) return "Dates must be real days written YYYY-MM-DD.";
  if (since > until) return "The start date must not be after the end date.";
  if (daysBetween(since, until) >= MAX_RANGE_DAYS) return `A range may span at most ${MAX_RANGE_DAYS} days.`;
  return null;
}

const zero = (): FigureSums => ({ impressions: 0, clicks: 0, spendMinor: 0, conversions: 0, valueMinor: 0 });
function add(into: FigureSums, s: FigureSums) {
  into.impressions += s.impressions;
  into.clicks += s.clicks;
  into.spendMinor += s.spendMinor;
  into.conversions += s.conversions;
  into.valueMinor += s.valueMinor;
}
/**
 * The ad accounts the rollup has read for the workspace (each with its own cursor: clock and time zone; and its
 * currency), by platform, the default account first. Accounts of one platform may differ in both.
 */
export async function resultAccounts(workspaceId: string): Promise<ResultAccount[]> {
  const cursors = await getDb().performanceAccountCursor.findMany({ where: { workspaceId } });
  const identities = await accountIdentities(workspaceId, cursors);
  return cursors.map((c, i) => ({ ...identities[i]!, timeZone: c.timeZone, today: c.today })).sort(accountOrder);
}

/**
 * One ad account's results over a range of its days, from the rows the hourly rollup stored
 * (ad_daily_insights) for the campaigns made on it: per campaign, ad set and ad, and the account's
 * totals, all in its currency. Null before the rollup has read the account. The range defaults to the
 * last RESULTS_DEFAULT_DAYS days of the account's own clock; the caller checks a given range with
 * rangeProblem first.
 */
export async function accountResults(workspaceId: string, adAccountId: string, range: ResultsRange = {}): Promise<AccountResults | null> {
  const account = (await resultAccounts(workspaceId)).find((a) => a.adAccountId === adAccountId);
  if (!account) return null;
  const { currency } = account;
  const until = range.until ?? account.today;
  const since = range.since ?? addDays(until, -(RESULTS_DEFAULT_DAYS - 1));
  const rows = await queryRows<
    { campaignId: string; adSetId: string; adId: string } & Record<"impressions" | "clicks" | "spend" | "conversions" | "value", number>
  >(
    `SELECT "campaignId", "adSetId", "adId",
            sum(impressions)::float8 AS impressions, sum(clicks)::float8 AS clicks, sum("spendMinor")::float8 AS spend,
            sum(conversions)::float8 AS conversions, sum("conversionValueMinor")::float8 AS value
       FROM ad_daily_insights
      WHERE "workspaceId" = $1 AND date BETWEEN $3 AND $4
        AND "campaignId" IN (SELECT id FROM ad_campaigns WHERE "workspaceId" = $1 AND "adAccountId" = $2)
      GROUP BY "campaignId", "adSetId", "adId"`,
    [workspaceId, adAccountId, since, until],
  );
  const total = zero();
  const campaigns = new Map<string, { sums: FigureSums; adSets: Map<string, { sums: FigureSums; ads: { id: string; sums: FigureSums }[] }> }>();
  for (const r of rows) {
    const sums: FigureSums = {
      impressions: Number(r.impressions),
      clicks: Number(r.clicks),
      spendMinor: Number(r.spend),
      conversions: Number(r.conversions),
      valueMinor: Number(r.value),
    };
    add(total, sums);
    const campaign = campaigns.get(r.campaignId) ?? { sums: zero(), adSets: new Map() };
    campaigns.set(r.campaignId, campaign);
    add(campaign.sums, sums);
    const adSet = campaign.adSets.get(r.adSetId) ?? { sums: zero(), ads: [] };
    campaign.adSets.set(r.adSetId, adSet);
    add(adSet.sums, sums);
    adSet.ads.push({ id: r.adId, sums });
  }
  const bySpend = <T extends { sums: FigureSums }>(a: T & { id: string }, b: T & { id: string }) =>
    b.sums.spendMinor - a.sums.spendMinor || a.id.localeCompare(b.id);
  const listed = [...campaigns].map(([id, c]) => ({
    id,
    sums: c.sums,
    adSets: [...c.adSets].map(([adSetId, s]) => ({ id: adSetId, sums: s.sums, ads: s.ads.sort(bySpend) })).sort(bySpend),
  }));
  listed.sort(bySpend);
  const shownAdIds = listed.flatMap((c) => c.adSets.flatMap((s) => s.ads.slice(0, RESULTS_ADS_PER_AD_SET).map((a) => a.id)));
  const db = getDb();
  const [campaignRows, adSetRows, adRows] = await Promise.all([
    db.adCampaign.findMany({ where: { workspaceId, id: { in: listed.map((c) => c.id) } }, select: { id: true, name: true, objective: true, status: true } }),
    db.adSet.findMany({ where: { workspaceId, id: { in: listed.flatMap((c) => c.adSets.map((s) => s.id)) } }, select: { id: true, name: true, status: true } }),
    db.ad.findMany({ where: { workspaceId, id: { in: shownAdIds } }, select: { id: true, name: true, status: true } }),
  ]);
  const named = <T extends { id: string }>(list: T[]) => new Map(list.map((x) => [x.id, x]));
  const campaignOf = named(campaignRows),
    adSetOf = named(adSetRows),
    adOf = named(adRows);
  return {
    ...account,
    since,
    until,
    totals: figuresFromSums(total, currency),
    campaigns: listed.map((c) => ({
      id: c.id,
      name: campaignOf.get(c.id)?.name ?? "(deleted campaign)",
      objective: campaignOf.get(c.id)?.objective ?? null,
      status: campaignOf.get(c.id)?.status ?? null,
      ...figuresFromSums(c.sums, currency),
      adSets: c.adSets.map((s) => ({
        id: s.id,
        name: adSetOf.get(s.id)?.name ?? "(deleted ad set)",
        status: adSetOf.get(s.id)?.status ?? null,
        ...figuresFromSums(s.sums, currency),
        moreAds: Math.max(0, s.ads.length - RESULTS_ADS_PER_AD_SET),
        ads: s.ads.slice(0, RESULTS_ADS_PER_AD_SET).map((a) => ({
          id: a.id,
          name: adOf.get(a.id)?.name ?? "(deleted ad)",
          status: adOf.get(a.id)?.status ?? null,
          ...figuresFromSums(a.sums, currency),
        })),
      })),
    })),
  };
}
