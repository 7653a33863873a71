import { adsByAccount, platformForAccount, withBusyRetry } from "@/lib/ads/platform-access";
import { isAppError } from "@/lib/errors";
import { getDb, queryRows } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { adapterFor, getAdAccount, platformWaitSeconds } from "@/lib/platforms";
import type { DailyInsight, HourlyInsight, PlatformAccountInfo } from "@/lib/platforms/ads-types";
import { forgetAccountsNotRead, recordAccountFailed, recordAccountsRead } from "./rollup-status";
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
  /** The default account's days read (the other accounts' are their own). */
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
 * Pulls one platform's ad accounts' daily insights into ad_daily_insights: the default account and every other one
 * with ads, each over its own days (accounts of one platform may differ in time zone): from the day its last run left
 * partial (its today then) through its today, or its last 30 days on its first run. One platform read per account,
 * upserts in chunks of one statement each; on platforms with an hourly breakdown, the same days' hours too
 * (ad_hourly_insights, from yesterday on a first pull). The cursors move only after every chunk is written, so a run
 * killed midway re-reads the same days, and the upserts (keyed by ad and day, or ad, day and hour) leave one row each.
 * Each account's outcome is recorded on its rollup status (rollup-status.ts): another account that cannot be read (not
 * connected, or refused) is recorded and left out while the others are stored; the default account's failure, or a
 * rate limit, stops the platform's pull (the run waits a rate limit out and pulls the platform again).
 */
export async function pullAccount(workspaceId: string, platform: Platform, options: PullOptions = {}): Promise<PullResult | null> {
  const db = getDb();
  const account = await getAdAccount(workspaceId, platform);
  if (!account) return null;
  const ads = await db.ad.findMany({
    where: { workspaceId, platform },
    select: { id: true, externalId: true, creativeId: true, adSetId: true, campaignId: true },
  });
  const byExternal = new Map(ads.map((a) => [a.externalId, a]));
  // Ads live on their campaign's account, which need not be today's default: each account with ads is read.
  const sources = await accountsWithAds(workspaceId, { account, api: adapterFor(account) }, ads);
  await forgetAccountsNotRead(
    workspaceId,
    platform,
    sources.map((s) => s.adAccountId),
  );
  const failed = new Map<string, string>();
  let stoppedAt: Source["account"] | undefined;
  try {
    const reads: AccountRead[] = [];
    for (const source of sources) {
      try {
        if ("error" in source) throw source.error;
        reads.push(await readAccount(source, ads.length > 0));
      } catch (err) {
        failed.set(source.adAccountId, errorMessage(err));
        if (source === sources[0] || platformWaitSeconds(err)) {
          stoppedAt = (source as Source).account;
          throw err;
        }
      }
    }
    const rows = reads.flatMap((r) => r.daily.filter((d) => byExternal.has(d.adExternalId)));
    for (let i = 0; i < rows.length; i += INSIGHT_CHUNK) {
      if (options.stopBudget && options.stopBudget.chunksLeft-- <= 0) throw new SimulatedCrash();
      await writeChunk(workspaceId, platform, rows.slice(i, i + INSIGHT_CHUNK), byExternal);
    }
    // Hourly rows (live platforms): from each account's last partial day, like its days; written before the cursors move.
    const hourly = reads.flatMap((r) => r.hourly.filter((h) => byExternal.has(h.adExternalId)));
    for (let i = 0; i < hourly.length; i += INSIGHT_CHUNK) {
      if (options.stopBudget && options.stopBudget.chunksLeft-- <= 0) throw new SimulatedCrash();
      await writeHourlyChunk(workspaceId, platform, hourly.slice(i, i + INSIGHT_CHUNK), byExternal);
    }
    if (options.stopBudget && options.stopBudget.chunksLeft <= 0) throw new SimulatedCrash();

    await recordCurrencies(new Map(reads.map((r) => [r.account.id, r.info.currency])));
    for (const r of reads) {
      // Its today was partial: the next run reads it again (and nothing older).
      const state = { resumeFrom: r.info.today, today: r.info.today, timeZone: r.info.timeZone };
      await db.performanceAccountCursor.upsert({
        where: { adAccountId: r.account.id },
        create: { adAccountId: r.account.id, workspaceId, platform, ...state },
        update: state,
      });
    }
    const { info } = reads[0]!;
    const clock = { today: info.today, timeZone: info.timeZone, currency: info.currency };
    await db.performanceCursor.upsert({
      where: { workspaceId_platform: { workspaceId, platform } },
      create: { workspaceId, platform, ...clock },
      update: clock,
    });
    await recordAccountsRead(
      workspaceId,
      platform,
      reads.map((r) => r.account.id),
    );
    for (const [adAccountId, message] of failed) await recordAccountFailed(workspaceId, platform, adAccountId, message);
    return { workspaceId, platform, since: reads[0]!.since, until: info.today, rows: rows.length, hourlyRows: hourly.length };
  } catch (err) {
    if (err instanceof SimulatedCrash) throw err;
    // Nothing of this run was stored: each account says why, its own refusal or the one that stopped the pull.
    const cause = stoppedAt ? `the pull stopped at ad account ${stoppedAt.externalAccountId}: ${errorMessage(err)}` : errorMessage(err);
    for (const source of sources) {
      const own = failed.get(source.adAccountId);
      await recordAccountFailed(workspaceId, platform, source.adAccountId, own ?? `Not stored this run: ${cause}`);
    }
    throw err;
  }
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

type Source = Awaited<ReturnType<typeof platformForAccount>>;

/** An account a pull should read: readable (its adapter), or why it cannot be (no longer connected). */
type AccountSource = (Source & { adAccountId: string }) | { adAccountId: string; error: Error };

/** One account a pull read: what the platform answered for it (its today, time zone, currency), its days and hours. */
type AccountRead = Source & { info: PlatformAccountInfo; since: string; daily: DailyInsight[]; hourly: HourlyInsight[] };

/** Reads one account: its clock, then its days from its cursor's and (platforms with an hourly breakdown) their hours. */
async function readAccount(source: Source, withHours: boolean): Promise<AccountRead> {
  const { account, api } = source;
  const info = await withBusyRetry(() => api.getAccount(account));
  const since = await resumeDay(account.id, info.today);
  const daily = await withBusyRetry(() => api.getDailyInsights(account, { since, until: info.today }));
  let hourly: HourlyInsight[] = [];
  if (withHours && api.getHourlyInsights) {
    const firstHourlyDay = addDays(info.today, -(HOURLY_FIRST_DAYS - 1));
    // biome-ignore lint/complexity/useMathMinMax: ISO dates (strings) compare in order; Math.max would need numbers
    const hourlySince = since > firstHourlyDay ? since : firstHourlyDay;
    hourly = await withBusyRetry(() => api.getHourlyInsights!(account, { since: hourlySince, until: info.today }));
  }
  return { ...source, info, since, daily, hourly };
}

/** The first day of the account's to read: its last partial day (its cursor's), within its 30-day window ending on `today`. */
async function resumeDay(adAccountId: string, today: string): Promise<string> {
  const cursor = await getDb().performanceAccountCursor.findUnique({ where: { adAccountId } });
  const firstDay = addDays(today, -(WINDOW_DAYS - 1));
  return cursor && cursor.resumeFrom > firstDay ? cursor.resumeFrom : firstDay;
}

/**
 * The accounts a pull should read: the default and every other account of the workspace with ads made on it. One no
 * longer connected (needs_reconnect, disconnected, or gone) cannot be read until it is connected again (then it
 * resumes from its own cursor): its adapter refuses, or it comes with the reason, and its status says so.
 */
async function accountsWithAds(workspaceId: string, defaultSource: Source, ads: { campaignId: string }[]): Promise<AccountSource[]> {
  const sources: AccountSource[] = [{ ...defaultSource, adAccountId: defaultSource.account.id }];
  for (const adAccountId of (await adsByAccount({ workspaceId }, ads)).keys()) {
    if (adAccountId === defaultSource.account.id) continue;
    try {
      sources.push({ ...(await platformForAccount({ workspaceId }, adAccountId)), adAccountId });
    } catch (err) {
      if (!(isAppError(err) && err.code === "not_connected")) throw err;
      sources.push({ adAccountId, error: err });
    }
  }
  return sources;
}

/** Records on each ad account the currency the platform answered for it (only where it changed: no write each hour). */
async function recordCurrencies(currencies: Map<string, string>): Promise<void> {
  for (const [id, currency] of currencies)
    await getDb().adAccount.updateMany({ where: { id, OR: [{ currency: null }, { currency: { not: currency } }] }, data: { currency } });
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
