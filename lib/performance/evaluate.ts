import { getDb, queryRows } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { emitEvent } from "@/lib/events/emit";
import { goalOf } from "./goal";
import { derive, labelCreatives, type PerformanceLabel } from "./labels";
import { type AccountSums, figuresByPrimaryCurrency } from "./primary-currency";
import { EARLIER_DAYS, RECENT_DAYS, WINDOW_DAYS } from "./window";
import { toMajor } from "@/lib/money";
import { adAccountCurrencies, rollupClock } from "./rollup-clock";
import type { Platform } from "@/lib/generated/prisma/enums";

const CHUNK = 500;

export interface EvaluateOptions {
  /** Tests: stop (throw) after recording label changes, before their events are stored, as a killed process would. */
  crashBeforeEvents?: boolean;
  /** Tests: stop (throw) after deciding creative tests, before pausing losers and sending test.completed. */
  crashBeforeTestActions?: boolean;
}

export interface LabelChangeOut {
  creativeId: string;
  previousLabel: PerformanceLabel;
  label: PerformanceLabel;
  eventId: string;
}

/**
 * Each creative's last-30-days sums per ad account (the window ends at the account's own current day, as its cursor
 * has it; its platform's default account's for rows of no known account), with the 3-day and the 11-day-before CTR
 * and frequency fatigue compares; `figuresByPrimaryCurrency` makes them its figures.
 */
async function accountSumsOf(workspaceId: string): Promise<AccountSums[]> {
  const rows = await queryRows<Record<string, number | string | null>>(
    `WITH d AS (
       SELECT i.*, k."adAccountId", to_date(coalesce(a.today, c.today), 'YYYY-MM-DD') AS today
         FROM ad_daily_insights i
         JOIN performance_cursors c ON c."workspaceId" = i."workspaceId" AND c.platform = i.platform
         LEFT JOIN ad_campaigns k ON k.id = i."campaignId"
         LEFT JOIN performance_account_cursors a ON a."adAccountId" = k."adAccountId"
        -- A first cut on the default account's days: another account's today is at most 2 days off (zones span 26 hours).
        WHERE i."workspaceId" = $1 AND i.date >= to_char(to_date(c.today, 'YYYY-MM-DD') - $2::int - 2, 'YYYY-MM-DD')
     ), w AS (
       SELECT d.*, (today - to_date(date, 'YYYY-MM-DD')) AS age FROM d WHERE date >= to_char(today - $2::int, 'YYYY-MM-DD')
     )
     SELECT "creativeId", platform::text AS platform, "adAccountId",
            sum(impressions)::float8 AS impressions, sum(clicks)::float8 AS clicks, sum("spendMinor")::float8 AS "spendMinor",
            sum(conversions)::float8 AS conversions, sum("conversionValueMinor")::float8 AS "conversionValueMinor",
            coalesce(sum(impressions) FILTER (WHERE age < $3), 0)::float8 AS "recentImpressions",
            coalesce(sum(clicks) FILTER (WHERE age < $3), 0)::float8 AS "recentClicks",
            coalesce(sum(impressions) FILTER (WHERE age >= $3 AND age < $4), 0)::float8 AS "earlierImpressions",
            coalesce(sum(clicks) FILTER (WHERE age >= $3 AND age < $4), 0)::float8 AS "earlierClicks",
            coalesce(sum(frequency * impressions) FILTER (WHERE age < $3), 0)::float8 AS "recentFrequencyWeight",
            coalesce(sum(frequency * impressions) FILTER (WHERE age >= $3 AND age < $4), 0)::float8 AS "earlierFrequencyWeight"
       FROM w GROUP BY "creativeId", platform, "adAccountId" ORDER BY "creativeId", platform, "adAccountId"`,
    [workspaceId, WINDOW_DAYS - 1, RECENT_DAYS, RECENT_DAYS + EARLIER_DAYS],
  );
  return rows.map((r) => ({
    creativeId: String(r.creativeId),
    platform: r.platform as Platform,
    adAccountId: r.adAccountId === null ? null : String(r.adAccountId),
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
    spendMinor: Number(r.spendMinor),
    conversions: Number(r.conversions),
    conversionValueMinor: Number(r.conversionValueMinor),
    recentImpressions: Number(r.recentImpressions),
    recentClicks: Number(r.recentClicks),
    earlierImpressions: Number(r.earlierImpressions),
    earlierClicks: Number(r.earlierClicks),
    recentFrequencyWeight: Number(r.recentFrequencyWeight),
    earlierFrequencyWeight: Number(r.earlierFrequencyWeight),
  }));
}

/**
 * Recomputes every creative's figures and label in the workspace. A change of label is one
 * statement (a conditional update on labelVersion and the insert of its change row), so with
 * several instances or a re-run exactly one change row exists per change; each change row's
 * event is then stored under the row's id as dedupe key. Changes left without an event by a
 * killed run are emitted first.
 */
export async function evaluateLabels(workspaceId: string, options: EvaluateOptions = {}): Promise<LabelChangeOut[]> {
  await emitPendingChanges(workspaceId);
  const goal = await goalOf(workspaceId);
  const figures = figuresByPrimaryCurrency(await accountSumsOf(workspaceId), await adAccountCurrencies(workspaceId));
  const now = new Date();

  for (let i = 0; i < figures.length; i += CHUNK) {
    const chunk = figures.slice(i, i + CHUNK);
    const params: unknown[] = [];
    const values = chunk.map((f) => {
      const d = derive(f);
      const frequency = f.recentFrequency ?? f.earlierFrequency;
      params.push(
        f.creativeId,
        workspaceId,
        f.impressions,
        f.clicks,
        f.spendMinor,
        f.conversions,
        f.conversionValueMinor,
        d.ctr,
        d.cpa,
        d.roas,
        frequency,
        d.recentCtr,
        d.earlierCtr,
        now,
        f.currency,
      );
      const n = params.length - 15;
      const p = (k: number, cast: string) => `$${n + k}::${cast}`;
      return `(${p(1, "text")}, ${p(2, "text")}, ${p(3, "int")}, ${p(4, "int")}, ${p(5, "int8")}, ${p(6, "int")}, ${p(7, "int8")}, ${p(8, "float8")}, ${p(9, "float8")}, ${p(10, "float8")}, ${p(11, "float8")}, ${p(12, "float8")}, ${p(13, "float8")}, ${p(14, "timestamp(3)")}, ${p(15, "text")}, 'neutral', 'Not labelled yet')`;
    });
    await getDb().$executeRawUnsafe(
      `INSERT INTO creative_performance ("creativeId", "workspaceId", impressions, clicks, "spendMinor", conversions, "conversionValueMinor", ctr, cpa, roas, frequency, "recentCtr", "earlierCtr", "updatedAt", currency, label, reason)
       VALUES ${values.join(", ")}
       ON CONFLICT ("creativeId") DO UPDATE SET impressions = excluded.impressions, clicks = excluded.clicks, "spendMinor" = excluded."spendMinor",
         conversions = excluded.conversions, "conversionValueMinor" = excluded."conversionValueMinor", ctr = excluded.ctr, cpa = excluded.cpa,
         roas = excluded.roas, frequency = excluded.frequency, "recentCtr" = excluded."recentCtr", "earlierCtr" = excluded."earlierCtr", "updatedAt" = excluded."updatedAt",
         currency = excluded.currency`,
      ...params,
    );
  }

  const stored = await getDb().creativePerformance.findMany({
    where: { workspaceId },
    select: { creativeId: true, label: true, labelVersion: true, reason: true },
  });
  const labels = labelCreatives(figures, goal, new Map(stored.map((row) => [row.creativeId, row.label as PerformanceLabel])));
  // Labels that hold keep their row; only a changed reason (new numbers) is written, a chunk per statement.
  const reasons = stored.filter((row) => labels.get(row.creativeId)?.label === row.label && labels.get(row.creativeId)!.reason !== row.reason);
  for (let i = 0; i < reasons.length; i += CHUNK) {
    const chunk = reasons.slice(i, i + CHUNK);
    await queryRows(
      `UPDATE creative_performance p SET reason = v.reason FROM unnest($1::text[], $2::int[], $3::text[]) AS v(id, version, reason)
        WHERE p."creativeId" = v.id AND p."labelVersion" = v.version`,
      [chunk.map((r) => r.creativeId), chunk.map((r) => r.labelVersion), chunk.map((r) => labels.get(r.creativeId)!.reason)],
    );
  }
  for (const row of stored) {
    const next = labels.get(row.creativeId);
    if (!next || next.label === row.label) continue;
    const version = row.labelVersion + 1;
    await queryRows(
      `WITH moved AS (
         UPDATE creative_performance SET label = $3, reason = $4, "labelVersion" = $5, "labelChangedAt" = $6::timestamp(3)
          WHERE "creativeId" = $1 AND "labelVersion" = $5 - 1 AND label = $2
          RETURNING "creativeId"
       )
       INSERT INTO creative_label_changes (id, "workspaceId", "creativeId", "labelVersion", "previousLabel", label, reason, "createdAt")
       SELECT $7, $8, "creativeId", $5, $2, $3, $4, $6::timestamp(3) FROM moved
       ON CONFLICT DO NOTHING`,
      [row.creativeId, row.label, next.label, next.reason, version, sqlTime(now), `clc_${row.creativeId}_${version}`, workspaceId],
    );
  }
  if (options.crashBeforeEvents) throw new Error("rollup stopped before emitting label events (simulated crash)");
  return emitPendingChanges(workspaceId);
}

/** Stores the creative.status_changed of every change not yet emitted (once per change, whoever runs it). */
async function emitPendingChanges(workspaceId: string): Promise<LabelChangeOut[]> {
  const db = getDb();
  const pending = await db.creativeLabelChange.findMany({ where: { workspaceId, eventId: null }, orderBy: [{ createdAt: "asc" }, { labelVersion: "asc" }] });
  const out: LabelChangeOut[] = [];
  if (!pending.length) return out;
  const fallbackCurrency = (await rollupClock(workspaceId)).currency;
  for (const change of pending) {
    const creative = await db.creative.findUnique({ where: { id: change.creativeId }, select: { id: true, fileName: true, kind: true } });
    const perf = await db.creativePerformance.findUnique({ where: { creativeId: change.creativeId } });
    const currency = perf?.currency ?? fallbackCurrency;
    const major = (minor: number | bigint) => toMajor(typeof minor === "bigint" ? minor : Math.round(minor), currency);
    const ads = await db.ad.findMany({
      where: { workspaceId, creativeId: change.creativeId, status: "active" },
      orderBy: { createdAt: "asc" },
      select: { id: true, name: true, platform: true, status: true },
    });
    const event = await emitEvent({
      workspaceId,
      type: "creative.status_changed",
      dedupeKey: `creative.status_changed:${change.id}`,
      data: {
        creative: { id: change.creativeId, fileName: creative?.fileName ?? "(deleted creative)", kind: creative?.kind ?? "image" },
        label: change.label as PerformanceLabel,
        previousLabel: change.previousLabel as PerformanceLabel,
        last30Days: {
          currency,
          spend: major(perf?.spendMinor ?? 0),
          impressions: perf?.impressions ?? 0,
          clicks: perf?.clicks ?? 0,
          conversions: perf?.conversions ?? 0,
          ctr: perf?.ctr ?? null,
          cpa: perf?.cpa == null ? null : major(perf.cpa),
          roas: perf?.roas ?? null,
        },
        ads: ads.map((a) => ({ adId: a.id, name: a.name, platform: a.platform, status: a.status })),
      },
    });
    await db.creativeLabelChange.updateMany({ where: { id: change.id, eventId: null }, data: { eventId: event.id } });
    out.push({
      creativeId: change.creativeId,
      previousLabel: change.previousLabel as PerformanceLabel,
      label: change.label as PerformanceLabel,
      eventId: event.id,
    });
  }
  return out;
}
