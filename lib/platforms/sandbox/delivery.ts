import { SANDBOX_RULES } from "./rules";
import { COMMENT_AUTHORS, COMMENT_MESSAGES, LEAD_NAMES, sandboxLeadForms } from "./catalog";
import { floorHour, HOUR_MS, localDayHour, simulatedNow, type SandboxAccountRow } from "./clock";
import { hash32, numericIdFrom, seededRandom } from "./seeded";
import { insertComments, insertLeads, type NewComment, type NewLead } from "./batches";
import { inSandboxTransaction, type SandboxSql, TABLE, ts } from "./store";

/**
 * The sandbox's delivery model. Deterministic: every hour of every ad draws from a generator
 * seeded by (ad, hour), so the same history replays identically.
 *
 * Per hour and ad set, the platform spends its budget's share of the day (shaped by a daily
 * curve, never past the daily or lifetime budget) across the ad set's active ads, favouring
 * better creatives (each creative's quality is seeded from its media id). Impressions follow
 * from a CPM; reach saturates against the targeting's audience, so frequency grows and
 * performance (CTR, conversion rate) decays with it: fatigue. Clicks convert by objective;
 * sales carry a value. Comments appear on ads with impressions; lead-form ads collect leads.
 *
 * Computed in memory for every (ad, hour) of the interval, written in batches.
 */

const MAX_HOURS_PER_SYNC = 24 * 120;

/** Share of a day's budget per local hour (sums to 24): quiet nights, busy evenings. */
const DIURNAL = [0.35, 0.25, 0.2, 0.2, 0.25, 0.4, 0.6, 0.85, 1.05, 1.15, 1.2, 1.25, 1.3, 1.3, 1.25, 1.25, 1.3, 1.4, 1.55, 1.65, 1.65, 1.5, 1.1, 0.65];
const DIURNAL_SCALE = 24 / DIURNAL.reduce((a, b) => a + b, 0);

const CONVERSION_RATE: Record<string, number> = { traffic: 0.02, sales: 0.045, leads: 0.09, awareness: 0.004, engagement: 0.01 };

interface ActiveAd {
  id: string;
  adSetId: string;
  name: string;
  quality: number;
  impressions: number;
  reach: number;
  spendMinor: number;
  leadFormId: string | null;
  budgetType: string;
  budgetMinor: number;
  startMs: number | null;
  endMs: number | null;
  audienceSize: number;
  objective: string;
}

interface DayRow {
  adId: string;
  date: string;
  adSetId: string;
  impressions: number;
  reach: number;
  clicks: number;
  spendMinor: number;
  conversions: number;
  valueMinor: number;
  frequency: number;
}

export interface DeliverySummary {
  hours: number;
  adsDelivered: number;
  impressions: number;
  clicks: number;
  spendMinor: number;
  conversions: number;
  conversionValueMinor: number;
  comments: number;
  leads: number;
}

export const emptySummary = (): DeliverySummary => ({
  hours: 0,
  adsDelivered: 0,
  impressions: 0,
  clicks: 0,
  spendMinor: 0,
  conversions: 0,
  conversionValueMinor: 0,
  comments: 0,
  leads: 0,
});

/**
 * Delivers every hour from the account's `deliveredThrough` to the current simulated hour, once:
 * the clock row is moved in the same transaction, conditionally, so concurrent syncs deliver
 * each hour exactly once.
 */
export async function syncDelivery(account: SandboxAccountRow): Promise<DeliverySummary> {
  const target = floorHour(simulatedNow(account));
  const from = account.deliveredThrough.getTime();
  if (target <= from) return emptySummary();
  const start = Math.max(from, target - MAX_HOURS_PER_SYNC * HOUR_MS);
  return inSandboxTransaction(
    async (tx) => {
      const moved = await tx.$executeRawUnsafe(
        `UPDATE ${TABLE.accounts} SET "deliveredThrough" = $3::timestamp(3) WHERE "externalAccountId" = $1 AND "deliveredThrough" = $2::timestamp(3)`,
        account.externalAccountId,
        ts(account.deliveredThrough),
        ts(target),
      );
      if (moved === 0) return emptySummary(); // another sync delivered these hours
      const summary = await deliverHours(tx, account, start, target);
      account.deliveredThrough = new Date(target);
      return summary;
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}

async function deliverHours(tx: SandboxSql, account: SandboxAccountRow, fromMs: number, toMs: number): Promise<DeliverySummary> {
  const summary = emptySummary();
  summary.hours = (toMs - fromMs) / HOUR_MS;
  const active = SANDBOX_RULES[account.platform].statusNames.active;
  const ads = await tx.$queryRawUnsafe<ActiveAd[]>(
    `SELECT a.id, a."adSetId", a.name, a.quality, a.impressions::float8 AS impressions, a.reach, a."spendMinor"::float8 AS "spendMinor",
            a."leadFormId", s."budgetType", s."budgetMinor",
            (extract(epoch from s."startTime") * 1000)::float8 AS "startMs", (extract(epoch from s."endTime") * 1000)::float8 AS "endMs",
            s."audienceSize", c.objective
       FROM ${TABLE.ads} a
       JOIN ${TABLE.adSets} s ON s.id = a."adSetId"
       JOIN ${TABLE.campaigns} c ON c.id = s."campaignId"
      WHERE a."accountId" = $1 AND a.status = $2 AND s.status = $2 AND c.status = $2
      ORDER BY a.id`,
    account.externalAccountId,
    active,
  );
  if (ads.length === 0) return summary;
  const objectives = SANDBOX_RULES[account.platform].objectiveNames;
  const neutralObjective = (name: string) => (Object.keys(objectives) as (keyof typeof objectives)[]).find((k) => objectives[k] === name) ?? "traffic";

  const firstDate = localDayHour(fromMs, account.timeZone).date;
  const adSetIds = [...new Set(ads.map((a) => a.adSetId))];
  // What each ad set already spent: per day from the first day on (daily budgets), in total (lifetime budgets).
  const existingDays = await tx.$queryRawUnsafe<DayRow[]>(
    `SELECT "adId", date, "adSetId", impressions, reach, clicks, "spendMinor", conversions, "valueMinor", frequency
       FROM ${TABLE.adDays} WHERE "adSetId" = ANY($1::text[]) AND date >= $2`,
    adSetIds,
    firstDate,
  );
  const lifetime = await tx.$queryRawUnsafe<{ adSetId: string; spent: number }[]>(
    `SELECT "adSetId", sum("spendMinor")::float8 AS spent FROM ${TABLE.ads} WHERE "adSetId" = ANY($1::text[]) GROUP BY "adSetId"`,
    adSetIds,
  );
  const days = new Map<string, DayRow>();
  const daySpend = new Map<string, number>(); // `${adSetId}|${date}`
  for (const d of existingDays) {
    days.set(`${d.adId}|${d.date}`, d);
    daySpend.set(`${d.adSetId}|${d.date}`, (daySpend.get(`${d.adSetId}|${d.date}`) ?? 0) + d.spendMinor);
  }
  const totalSpend = new Map(lifetime.map((l) => [l.adSetId, l.spent]));
  const bySet = new Map<string, ActiveAd[]>();
  for (const ad of ads) bySet.set(ad.adSetId, [...(bySet.get(ad.adSetId) ?? []), ad]);
  const touched = new Set<ActiveAd>();
  const comments: NewComment[] = [];
  const leads: NewLead[] = [];
  const forms = new Map(sandboxLeadForms(account.externalAccountId).map((f) => [f.externalId, f]));

  for (let t = fromMs; t < toMs; t += HOUR_MS) {
    const { date, hour } = localDayHour(t, account.timeZone);
    const shape = DIURNAL[hour]! * DIURNAL_SCALE;
    for (const [adSetId, setAds] of bySet) {
      const first = setAds[0]!;
      if (first.startMs !== null && t < first.startMs) continue;
      if (first.endMs !== null && t >= first.endMs) continue;
      const setRandom = seededRandom(hash32(`${adSetId}:${t}`));
      let remaining: number;
      let planned: number;
      if (first.budgetType === "lifetime") {
        remaining = first.budgetMinor - (totalSpend.get(adSetId) ?? 0);
        const hoursLeft = first.endMs !== null ? Math.max(1, Math.ceil((first.endMs - t) / HOUR_MS)) : 24 * 7;
        planned = (remaining / hoursLeft) * shape * (0.85 + 0.3 * setRandom());
      } else {
        remaining = first.budgetMinor - (daySpend.get(`${adSetId}|${date}`) ?? 0);
        planned = (first.budgetMinor / 24) * shape * (0.85 + 0.3 * setRandom());
      }
      planned = Math.min(Math.floor(planned), remaining);
      if (planned <= 0) continue;

      // The platform favours creatives that perform: weight by quality and freshness.
      const weights = setAds.map((ad) => ad.quality * ad.quality * fatigueOf(ad));
      const weightSum = weights.reduce((a, b) => a + b, 0);
      let spentThisHour = 0;
      setAds.forEach((ad, i) => {
        const random = seededRandom(hash32(`${ad.id}:${t}`));
        const share = Math.floor((planned * weights[i]!) / weightSum);
        if (share <= 0) return;
        const fatigue = fatigueOf(ad);
        const cpm = (650 * (1.3 - 0.3 * ad.quality) * (0.9 + 0.2 * random())) / (0.55 + 0.45 * fatigue);
        const impressions = Math.floor((share * 1000) / cpm);
        if (impressions <= 0) return;
        const spend = share;
        const ctr = 0.011 * ad.quality * fatigue * (0.8 + 0.4 * random());
        const clicks = Math.floor(impressions * ctr + random());
        const objective = neutralObjective(ad.objective);
        const cvr = (CONVERSION_RATE[objective] ?? 0.02) * ad.quality * (0.5 + 0.5 * fatigue) * (0.7 + 0.6 * random());
        const conversions = Math.floor(clicks * cvr + random());
        const value = objective === "sales" ? conversions * (2500 + Math.floor(random() * 5000)) : 0;

        ad.impressions += impressions;
        const reach = Math.max(1, Math.round(ad.audienceSize * (1 - Math.exp(-ad.impressions / ad.audienceSize))));
        ad.reach = Math.min(Math.max(ad.reach, reach), Math.round(ad.impressions));
        ad.spendMinor += spend;
        spentThisHour += spend;
        touched.add(ad);

        const key = `${ad.id}|${date}`;
        const day = days.get(key) ?? {
          adId: ad.id,
          date,
          adSetId,
          impressions: 0,
          reach: 0,
          clicks: 0,
          spendMinor: 0,
          conversions: 0,
          valueMinor: 0,
          frequency: 0,
        };
        day.impressions += impressions;
        day.clicks += clicks;
        day.spendMinor += spend;
        day.conversions += conversions;
        day.valueMinor += value;
        day.reach = Math.min(day.impressions, Math.max(1, Math.round(ad.audienceSize * (1 - Math.exp(-day.impressions / ad.audienceSize)))));
        day.frequency = ad.impressions / ad.reach;
        days.set(key, day);

        summary.impressions += impressions;
        summary.clicks += clicks;
        summary.spendMinor += spend;
        summary.conversions += conversions;
        summary.conversionValueMinor += value;

        const commentChance = impressions / 4000;
        for (let c = Math.floor(commentChance) + (random() < commentChance % 1 ? 1 : 0); c > 0 && comments.length < 50_000; c--) {
          const pick = Math.floor(random() * COMMENT_MESSAGES.length);
          comments.push({
            id: numericIdFrom(`${ad.id}:${t}:comment:${c}`, 17),
            accountId: account.externalAccountId,
            adId: ad.id,
            authorName: COMMENT_AUTHORS[Math.floor(random() * COMMENT_AUTHORS.length)]!,
            message: COMMENT_MESSAGES[pick]!,
            createdAt: new Date(t + Math.floor(random() * HOUR_MS)),
          });
        }
        const form = ad.leadFormId ? forms.get(ad.leadFormId) : undefined;
        if (form && objective === "leads") {
          for (let l = 0; l < conversions && leads.length < 50_000; l++) {
            const name = LEAD_NAMES[Math.floor(random() * LEAD_NAMES.length)]!;
            const handle = name.toLowerCase().replace(/\s+/g, ".");
            const values: Record<string, string> = {
              full_name: name,
              email: `${handle}.${Math.floor(random() * 1000)}@example.com`,
              phone_number: `+1555${String(Math.floor(random() * 10_000_000)).padStart(7, "0")}`,
            };
            leads.push({
              id: numericIdFrom(`${ad.id}:${t}:lead:${l}`, 16),
              accountId: account.externalAccountId,
              formId: form.externalId,
              adId: ad.id,
              fields: form.questions.map((q) => ({ name: q, values: [values[q] ?? ""] })),
              createdAt: new Date(t + Math.floor(random() * HOUR_MS)),
            });
          }
        }
      });
      if (first.budgetType === "lifetime") totalSpend.set(adSetId, (totalSpend.get(adSetId) ?? 0) + spentThisHour);
      else daySpend.set(`${adSetId}|${date}`, (daySpend.get(`${adSetId}|${date}`) ?? 0) + spentThisHour);
    }
  }

  summary.adsDelivered = touched.size;
  summary.comments = comments.length;
  summary.leads = leads.length;
  await writeDays(tx, account.externalAccountId, [...days.values()]);
  await writeAdTotals(tx, [...touched]);
  await insertComments(comments, tx);
  await insertLeads(leads, tx);
  return summary;
}

/** Performance left after fatigue: 1 for a fresh ad, falling as frequency grows past 1. */
function fatigueOf(ad: Pick<ActiveAd, "impressions" | "reach">): number {
  const frequency = ad.reach > 0 ? ad.impressions / ad.reach : 1;
  return 1 / (1 + 0.35 * Math.max(0, frequency - 1));
}

const CHUNK = 500;

async function writeDays(tx: SandboxSql, accountId: string, rows: DayRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const params: unknown[] = [];
    const values = chunk.map((r) => {
      params.push(r.adId, r.date, accountId, r.adSetId, r.impressions, r.reach, r.clicks, r.spendMinor, r.conversions, r.valueMinor, r.frequency);
      const n = params.length;
      return `($${n - 10}, $${n - 9}, $${n - 8}, $${n - 7}, $${n - 6}::int, $${n - 5}::int, $${n - 4}::int, $${n - 3}::int, $${n - 2}::int, $${n - 1}::int, $${n}::float8)`;
    });
    await tx.$executeRawUnsafe(
      `INSERT INTO ${TABLE.adDays} ("adId", date, "accountId", "adSetId", impressions, reach, clicks, "spendMinor", conversions, "valueMinor", frequency)
       VALUES ${values.join(", ")}
       ON CONFLICT ("adId", date) DO UPDATE SET impressions = excluded.impressions, reach = excluded.reach, clicks = excluded.clicks,
         "spendMinor" = excluded."spendMinor", conversions = excluded.conversions, "valueMinor" = excluded."valueMinor", frequency = excluded.frequency`,
      ...params,
    );
  }
}

async function writeAdTotals(tx: SandboxSql, ads: ActiveAd[]): Promise<void> {
  for (let i = 0; i < ads.length; i += CHUNK) {
    const chunk = ads.slice(i, i + CHUNK);
    await tx.$executeRawUnsafe(
      `UPDATE ${TABLE.ads} a SET impressions = v.impressions, reach = v.reach, "spendMinor" = v.spend
         FROM unnest($1::text[], $2::bigint[], $3::int[], $4::bigint[]) AS v(id, impressions, reach, spend)
        WHERE a.id = v.id`,
      chunk.map((a) => a.id),
      chunk.map((a) => Math.round(a.impressions)),
      chunk.map((a) => a.reach),
      chunk.map((a) => Math.round(a.spendMinor)),
    );
  }
}
