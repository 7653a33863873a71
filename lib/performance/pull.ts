import { adsByAccount, platformForAccount, withBusyRetry } from "@/lib/ads/platform-access";
import { isAppError } from "@/lib/errors";
import { getDb, queryRows } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { adapterFor, getAdAccount } from "@/lib/platforms";
import type { DailyInsight, HourlyInsight } from "@/lib/platforms/ads-types";
import { addDays, WINDOW_DAYS } from "./window";

/** Rows per INSERT statement (one statement per chunk). */
export const INSIGHT_CHUNK = 1_000;

/** Days of hourly rows a first pull reads (today and yesterday); later pulls read from the last partial day. */
export const HOURLY_FIRST_DAYS = 2;

export interface PullOptions {
  /** Drills: chunks this run may still write before it stops (throws), as a killed process would; shared by the run's accounts. */
  stopBudget?: { chunksLeft: number };
}

export interface PullResult {
  workspaceId: string;
  platform: Platform;
  since: string;
  until: string;
  rows: number;
  /** Hourly rows written (platforms with an hourly breakdown). */
  hourlyRows: number;
}

export class SimulatedCrash extends Error {
  constructor() {
    super("rollup stopped midway (simulated crash)");
  }
}

/**
 * Pulls one ad account's daily insights into ad_daily_insights: from the day the last run left
 * partial (the account's today then) through today, or the last 30 days on the first run. One
 * platform read for the whole account, upserts in chunks of one statement each; on platforms with an
 * hourly breakdown, the same days' hours too (ad_hourly_insights, from yesterday on a first pull). The
 * cursor moves only after every chunk is written, so a run killed midway re-reads the same days, and
 * the upserts (keyed by ad and day, or ad, day and hour) leave one row each.
 */
export async function pullAccount(workspaceId: string, platform: Platform, options: PullOptions = {}): Promise<PullResult | null> {
  const db = getDb();
  const account = await getAdAccount(workspaceId, platform);
  if (!account) return null;
  const api = adapterFor(account);
  const info = await withBusyRetry(() => api.getAccount(account));
  const cursor = await db.performanceCursor.findUnique({ where: { workspaceId_platform: { workspaceId, platform } } });
  const firstDay = addDays(info.today, -(WINDOW_DAYS - 1));
  const since = cursor && cursor.resumeFrom > firstDay ? cursor.resumeFrom : firstDay;

  const ads = await db.ad.findMany({
    where: { workspaceId, platform },
    select: { id: true, externalId: true, creativeId: true, adSetId: true, campaignId: true },
  });
  const byExternal = new Map(ads.map((a) => [a.externalId, a]));
  // Ads live on their campaign's account, which need not be today's default: each account with ads is read.
  const sources = await readableAccounts(workspaceId, { account, api }, ads);
  // Each account's amounts are in its own currency (two accounts of a platform may differ): read with its insights.
  const currencies = new Map([[account.id, info.currency]]);
  for (const source of sources.slice(1)) currencies.set(source.account.id, (await withBusyRetry(() => source.api.getAccount(source.account))).currency);
  const insights: DailyInsight[] = [];
  for (const source of sources) insights.push(...(await withBusyRetry(() => source.api.getDailyInsights(source.account, { since, until: info.today }))));
  const rows = insights.filter((r) => byExternal.has(r.adExternalId));

  for (let i = 0; i < rows.length; i += INSIGHT_CHUNK) {
    if (options.stopBudget && options.stopBudget.chunksLeft-- <= 0) throw new SimulatedCrash();
    await writeChunk(workspaceId, platform, rows.slice(i, i + INSIGHT_CHUNK), byExternal);
  }
  // Hourly rows (live platforms): from the last partial day, like the days; written before the cursor moves.
  const hourly: HourlyInsight[] = [];
  if (ads.length && api.getHourlyInsights) {
    const firstHourlyDay = addDays(info.today, -(HOURLY_FIRST_DAYS - 1));
    // biome-ignore lint/complexity/useMathMinMax: ISO dates (strings) compare in order; Math.max would need numbers
    const hourlySince = since > firstHourlyDay ? since : firstHourlyDay;
    for (const source of sources) {
      const got = await withBusyRetry(() => source.api.getHourlyInsights!(source.account, { since: hourlySince, until: info.today }));
      hourly.push(...got.filter((r) => byExternal.has(r.adExternalId)));
    }
    for (let i = 0; i < hourly.length; i += INSIGHT_CHUNK) {
      if (options.stopBudget && options.stopBudget.chunksLeft-- <= 0) throw new SimulatedCrash();
      await writeHourlyChunk(workspaceId, platform, hourly.slice(i, i + INSIGHT_CHUNK), byExternal);
    }
  }
  if (options.stopBudget && options.stopBudget.chunksLeft <= 0) throw new SimulatedCrash();

  await recordCurrencies(currencies);
  const now = new Date();
  const state = { resumeFrom: info.today, today: info.today, timeZone: info.timeZone, currency: info.currency };
  await db.performanceCursor.upsert({ where: { workspaceId_platform: { workspaceId, platform } }, create: { workspaceId, platform, ...state }, update: state });
  const status = { lastRunAt: now, lastSuccessAt: now, lastError: null };
  await db.performanceRollupStatus.upsert({
    where: { workspaceId_platform: { workspaceId, platform } },
    create: { workspaceId, platform, ...status },
    update: status,
  });
  return { workspaceId, platform, since, until: info.today, rows: rows.length, hourlyRows: hourly.length };
}

type Source = Awaited<ReturnType<typeof platformForAccount>>;

/**
 * The accounts a pull reads: the default (whose days the cursor counts) and every other account of the workspace
 * with ads made on it. One of those no longer connected is left out: nothing can be read from it until it is
 * connected again, and the default's days go on.
 */
async function readableAccounts(workspaceId: string, defaultSource: Source, ads: { campaignId: string }[]): Promise<Source[]> {
  const sources: Source[] = [defaultSource];
  for (const adAccountId of (await adsByAccount({ workspaceId }, ads)).keys()) {
    if (adAccountId === defaultSource.account.id) continue;
    try {
      const other = await platformForAccount({ workspaceId }, adAccountId);
      if (other.account.status === "active") sources.push(other);
    } catch (err) {
      if (!(isAppError(err) && err.code === "not_connected")) throw err;
    }
  }
  return sources;
}

/** Records on each ad account the currency the platform answered for it (only where it changed: no write each hour). */
async function recordCurrencies(currencies: Map<string, string>): Promise<void> {
  for (const [id, currency] of currencies)
    await getDb().adAccount.updateMany({ where: { id, OR: [{ currency: null }, { currency: { not: currency } }] }, data: { currency } });
}

/**
 * Records a failed pull on the account's rollup status (the page shows it, also for an account never
 * pulled yet); the cursor stays, so the next hour retries from the same day.
 */
export async function recordPullError(workspaceId: string, platform: Platform, message: string): Promise<void> {
  const failure = { lastError: message.slice(0, 500), lastRunAt: new Date() };
  await getDb().performanceRollupStatus.upsert({
    where: { workspaceId_platform: { workspaceId, platform } },
    create: { workspaceId, platform, ...failure },
    update: failure,
  });
}

type AdKeys = { id: string; creativeId: string; adSetId: string; campaignId: string };

async function writeChunk(workspaceId: string, platform: Platform, rows: DailyInsight[], ads: Map<string, AdKeys>): Promise<void> {
  // One array per column (unnest): 14 parameters per statement whatever its size, far cheaper to bind than one per value.
  const ad = (r: DailyInsight) => ads.get(r.adExternalId)!;
  await queryRows(
    `INSERT INTO ad_daily_insights ("adId", date, "workspaceId", platform, "creativeId", "adSetId", "campaignId", impressions, reach, clicks, "spendMinor", conversions, "conversionValueMinor", frequency)
     SELECT v."adId", v.date, $1::text, $2::"Platform", v."creativeId", v."adSetId", v."campaignId", v.impressions, v.reach, v.clicks, v.spend, v.conversions, v.value, v.frequency
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::int[], $11::int8[], $12::int[], $13::int8[], $14::float8[])
         AS v("adId", date, "creativeId", "adSetId", "campaignId", impressions, reach, clicks, spend, conversions, value, frequency)
     ON CONFLICT ("adId", date) DO UPDATE SET impressions = excluded.impressions, reach = excluded.reach, clicks = excluded.clicks,
       "spendMinor" = excluded."spendMinor", conversions = excluded.conversions, "conversionValueMinor" = excluded."conversionValueMinor", frequency = excluded.frequency`,
    [
      workspaceId,
      platform,
      rows.map((r) => ad(r).id),
      rows.map((r) => r.date),
      rows.map((r) => ad(r).creativeId),
      rows.map((r) => ad(r).adSetId),
      rows.map((r) => ad(r).campaignId),
      rows.map((r) => r.impressions),
      rows.map((r) => r.reach),
      rows.map((r) => r.clicks),
      rows.map((r) => r.spendMinor),
      rows.map((r) => r.conversions),
      rows.map((r) => r.conversionValueMinor),
      rows.map((r) => r.frequency),
    ],
  );
}

async function writeHourlyChunk(workspaceId: string, platform: Platform, rows: HourlyInsight[], ads: Map<string, AdKeys>): Promise<void> {
  await queryRows(
    `INSERT INTO ad_hourly_insights ("adId", date, hour, "workspaceId", platform, "creativeId", impressions, clicks, "spendMinor", conversions, "conversionValueMinor")
     SELECT v."adId", v.date, v.hour, $1::text, $2::"Platform", v."creativeId", v.impressions, v.clicks, v.spend, v.conversions, v.value
       FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::int[], $8::int[], $9::int8[], $10::int[], $11::int8[])
         AS v("adId", date, hour, "creativeId", impressions, clicks, spend, conversions, value)
     ON CONFLICT ("adId", date, hour) DO UPDATE SET impressions = excluded.impressions, clicks = excluded.clicks,
       "spendMinor" = excluded."spendMinor", conversions = excluded.conversions, "conversionValueMinor" = excluded."conversionValueMinor"`,
    [
      workspaceId,
      platform,
      rows.map((r) => ads.get(r.adExternalId)!.id),
      rows.map((r) => r.date),
      rows.map((r) => r.hour),
      rows.map((r) => ads.get(r.adExternalId)!.creativeId),
      rows.map((r) => r.impressions),
      rows.map((r) => r.clicks),
      rows.map((r) => r.spendMinor),
      rows.map((r) => r.conversions),
      rows.map((r) => r.conversionValueMinor),
    ],
  );
}
