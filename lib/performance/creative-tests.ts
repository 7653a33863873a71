import type { Principal } from "@/lib/auth/principal";
import { platformForCampaign, withBusyRetry } from "@/lib/ads/platform-access";
import { invalidArgument, requireAdSet } from "@/lib/ads/lookups";
import { pauseAds } from "@/lib/ads/status-changes";
import { getDb, queryRows } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { emitEvent } from "@/lib/events/emit";
import type { CreativeTest, Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { principalForUser } from "@/lib/session/principal";
import { hash32 } from "@/lib/random/seeded";
import { probabilityToBeBest, type Evidence } from "./probability";
import type { EvaluateOptions } from "./evaluate";
import { toMajor } from "@/lib/money";
import { adAccountCurrencies } from "./rollup-clock";

export const TEST_METRICS = ["ctr", "conversion_rate", "cpa"] as const;
export type TestMetric = (typeof TEST_METRICS)[number];
/** The winner needs this probability to be best unless the test names its own. */
export const DEFAULT_THRESHOLD = 0.95;

export interface VariantProgress {
  creativeId: string;
  fileName: string;
  impressions: number;
  clicks: number;
  conversions: number;
  spend: number;
  /** The metric: a rate (0..1) for ctr and conversion_rate, account currency for cpa; null without data. */
  value: number | null;
  /** Impressions (ctr) or clicks (conversion_rate, cpa) so far, against minSample. */
  sample: number;
  probabilityToBeBest: number;
}

export interface CreativeTestOut {
  id: string;
  name: string;
  adSetId: string;
  metric: TestMetric;
  creativeIds: string[];
  minSample: number;
  maxDays: number;
  threshold: number;
  pauseLosers: boolean;
  status: "running" | "completed" | "stopped";
  outcome: "won" | "lost" | null;
  winnerCreativeId: string | null;
  startDate: string;
  startedAt: string;
  endsAt: string;
  decidedAt: string | null;
  progress: {
    /** The ad set's ad account currency: the variants' spend and a cpa test's values are in its major units. */
    currency: string;
    variants: VariantProgress[];
    minSampleReached: boolean;
    leaderCreativeId: string | null;
    leaderProbability: number | null;
    pausedAdIds: string[];
    pauseError: string | null;
  };
}

const DAY_MS = 86_400_000;

/** Per variant: its ads' delivery in the ad set since the test's first day, and its probability to be best. */
async function progressOf(test: CreativeTest): Promise<Omit<CreativeTestOut["progress"], "pausedAdIds" | "pauseError">> {
  const sums = await queryRows<{ creativeId: string; impressions: number; clicks: number; conversions: number; spend: number }>(
    `SELECT "creativeId", sum(impressions)::float8 AS impressions, sum(clicks)::float8 AS clicks, sum(conversions)::float8 AS conversions, sum("spendMinor")::float8 AS spend
       FROM ad_daily_insights WHERE "workspaceId" = $1 AND "adSetId" = $2 AND "creativeId" = ANY($3::text[]) AND date >= $4
      GROUP BY "creativeId"`,
    [test.workspaceId, test.adSetId, test.creativeIds, test.startDate],
  );
  const creatives = await getDb().creative.findMany({ where: { id: { in: test.creativeIds } }, select: { id: true, fileName: true } });
  const currency = await adSetCurrency(test);
  const metric = test.metric as TestMetric;
  const rows = test.creativeIds.map((creativeId) => {
    const s = sums.find((r) => r.creativeId === creativeId) ?? { impressions: 0, clicks: 0, conversions: 0, spend: 0 };
    const n = { impressions: Number(s.impressions), clicks: Number(s.clicks), conversions: Number(s.conversions), spendMinor: Number(s.spend) };
    const evidence: Evidence =
      metric === "ctr"
        ? { kind: "rate", successes: n.clicks, trials: n.impressions }
        : metric === "conversion_rate"
          ? { kind: "rate", successes: n.conversions, trials: n.clicks }
          : { kind: "per_spend", conversions: n.conversions, spend: n.spendMinor };
    const value =
      metric === "ctr"
        ? n.impressions
          ? n.clicks / n.impressions
          : null
        : metric === "conversion_rate"
          ? n.clicks
            ? n.conversions / n.clicks
            : null
          : n.conversions
            ? toMajor(n.spendMinor / n.conversions, currency)
            : null;
    return { creativeId, n, evidence, value, sample: metric === "ctr" ? n.impressions : n.clicks };
  });
  // The seed is the test and its numbers: every instance computes the same probabilities from the same data.
  const seed = hash32(`${test.id}:${rows.map((r) => `${r.n.impressions}/${r.n.clicks}/${r.n.conversions}/${r.n.spendMinor}`).join(",")}`);
  const p = probabilityToBeBest(
    rows.map((r) => r.evidence),
    seed,
  );
  const variants = rows.map((r, i) => ({
    creativeId: r.creativeId,
    fileName: creatives.find((c) => c.id === r.creativeId)?.fileName ?? "(deleted creative)",
    impressions: r.n.impressions,
    clicks: r.n.clicks,
    conversions: r.n.conversions,
    spend: toMajor(r.n.spendMinor, currency),
    value: r.value,
    sample: r.sample,
    probabilityToBeBest: Math.round(p[i]! * 10_000) / 10_000,
  }));
  const leader = variants.reduce((a, b) => (b.probabilityToBeBest > a.probabilityToBeBest ? b : a));
  // A leader needs one success (a click for ctr, a conversion otherwise): without any, the probabilities only say
  // which variant was tried least (the least spend wins a cpa test with no conversion at all), and its value is 0 or none.
  const leads = (metric === "ctr" ? leader.clicks : leader.conversions) > 0;
  return {
    currency,
    variants,
    minSampleReached: variants.every((v) => v.sample >= test.minSample),
    leaderCreativeId: leads ? leader.creativeId : null,
    leaderProbability: leads ? leader.probabilityToBeBest : null,
  };
}

/** The test's ad set is on one ad account (its campaign's), of the platform's several: its delivery is in that account's currency. */
async function adSetCurrency(test: CreativeTest): Promise<string> {
  const db = getDb();
  const adSet = await db.adSet.findUnique({ where: { id: test.adSetId }, select: { platform: true, campaignId: true } });
  const campaign = adSet && (await db.adCampaign.findUnique({ where: { id: adSet.campaignId }, select: { adAccountId: true } }));
  return (await adAccountCurrencies(test.workspaceId))(campaign?.adAccountId ?? null, adSet?.platform ?? "platform_a");
}

function pausesOf(test: CreativeTest): Pick<CreativeTestOut["progress"], "pausedAdIds" | "pauseError"> {
  const r = test.result as { pausedAdIds?: string[]; pauseError?: string | null } | null;
  return { pausedAdIds: r?.pausedAdIds ?? [], pauseError: r?.pauseError ?? null };
}

async function toOut(test: CreativeTest): Promise<CreativeTestOut> {
  const stored = test.status !== "running" ? (test.result as CreativeTestOut["progress"] | null) : null;
  // A decided test answers the figures it was decided on; one stored before they named their currency gets the account's.
  const progress = stored?.variants
    ? { ...stored, currency: stored.currency ?? (await adSetCurrency(test)), ...pausesOf(test) }
    : { ...(await progressOf(test)), ...pausesOf(test) };
  return {
    id: test.id,
    name: test.name,
    adSetId: test.adSetId,
    metric: test.metric as TestMetric,
    creativeIds: test.creativeIds,
    minSample: test.minSample,
    maxDays: test.maxDays,
    threshold: test.threshold,
    pauseLosers: test.pauseLosers,
    status: test.status as CreativeTestOut["status"],
    outcome: test.outcome as CreativeTestOut["outcome"],
    winnerCreativeId: test.winnerCreativeId,
    startDate: test.startDate,
    startedAt: test.startedAt.toISOString(),
    endsAt: test.endsAt.toISOString(),
    decidedAt: test.decidedAt?.toISOString() ?? null,
    progress,
  };
}

export interface CreateCreativeTestInput {
  name: string;
  adSetId: string;
  metric: TestMetric;
  creativeIds: string[];
  minSample: number;
  maxDays: number;
  threshold?: number;
  pauseLosers?: boolean;
}

/** Starts a test: every creative must have an ad in the ad set (not deleted). */
export async function createCreativeTest(principal: Principal, input: CreateCreativeTestInput): Promise<{ test: CreativeTestOut }> {
  const creativeIds = [...new Set(input.creativeIds)];
  if (creativeIds.length !== input.creativeIds.length) throw invalidArgument("creativeIds must not repeat a creative");
  const adSet = await requireAdSet(principal, input.adSetId);
  if (adSet.status === "deleted") throw new AppError("conflict", `Ad set ${adSet.id} was deleted`);
  const ads = await getDb().ad.findMany({
    where: { workspaceId: principal.workspaceId, adSetId: adSet.id, creativeId: { in: creativeIds }, status: { not: "deleted" } },
    select: { creativeId: true },
  });
  const missing = creativeIds.filter((id) => !ads.some((a) => a.creativeId === id));
  if (missing.length)
    throw invalidArgument(`creativeIds: ${missing.join(", ")} ha${missing.length > 1 ? "ve" : "s"} no ad in ad set ${adSet.id}; create one first`);
  // The first day is the ad set's own account's (its insights' days are in its time zone), not the platform default's.
  const { account, api } = await platformForCampaign(principal, adSet.campaignId);
  const today = (await withBusyRetry(() => api.getAccount(account))).today;
  const now = new Date();
  const row = await getDb().creativeTest.create({
    data: {
      id: newId("ctest"),
      workspaceId: principal.workspaceId,
      name: input.name,
      adSetId: adSet.id,
      metric: input.metric,
      creativeIds,
      minSample: input.minSample,
      maxDays: input.maxDays,
      threshold: input.threshold ?? DEFAULT_THRESHOLD,
      pauseLosers: input.pauseLosers ?? false,
      startDate: today,
      startedAt: now,
      endsAt: new Date(now.getTime() + input.maxDays * DAY_MS),
      createdById: principal.userId,
    },
  });
  return { test: await toOut(row) };
}

async function requireTest(principal: Pick<Principal, "workspaceId">, id: string): Promise<CreativeTest> {
  const row = await getDb().creativeTest.findFirst({ where: { id, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Creative test");
  return row;
}

export async function getCreativeTest(principal: Principal, input: { id: string }): Promise<{ test: CreativeTestOut }> {
  return { test: await toOut(await requireTest(principal, input.id)) };
}

export async function listCreativeTests(
  principal: Principal,
  input: { status?: "running" | "completed" | "stopped"; adSetId?: string; limit: number; cursor?: string },
): Promise<{ tests: CreativeTestOut[]; nextCursor: string | null }> {
  const where: Prisma.CreativeTestWhereInput = {
    workspaceId: principal.workspaceId,
    ...(input.status ? { status: input.status } : {}),
    ...(input.adSetId ? { adSetId: input.adSetId } : {}),
    ...afterCursor(input.cursor),
  };
  const rows = await getDb().creativeTest.findMany({ where, orderBy: NEWEST_FIRST, take: input.limit + 1 });
  const { items, nextCursor } = toPage(rows, input.limit);
  return { tests: await Promise.all(items.map(toOut)), nextCursor };
}

/** Stops a running test without a decision (no event); a decided test answers as it is. */
export async function stopCreativeTest(principal: Principal, input: { id: string }): Promise<{ test: CreativeTestOut }> {
  const row = await requireTest(principal, input.id);
  if (row.status === "running") {
    const progress = { ...(await progressOf(row)), pausedAdIds: [], pauseError: null };
    await getDb().creativeTest.updateMany({
      where: { id: row.id, status: "running" },
      data: { status: "stopped", result: progress as unknown as Prisma.InputJsonValue },
    });
  }
  return { test: await toOut(await requireTest(principal, input.id)) };
}

/**
 * The hourly evaluation of the workspace's running tests: a test whose variants all reached the
 * minimum sample and whose leader's probability to be best reaches the threshold is won; one past
 * its maximum duration without that is lost. The decision is one conditional update (running ->
 * completed), so exactly one instance decides; what follows it (pausing the losers, test.completed
 * stored under the test's id) is recorded as pending with the decision and settled by sweeps, so a
 * run killed in between finishes at the next evaluation.
 */
export async function evaluateCreativeTests(
  workspaceId: string,
  now = new Date(),
  options: Pick<EvaluateOptions, "crashBeforeTestActions"> = {},
): Promise<{ decided: string[] }> {
  const db = getDb();
  const decided: string[] = [];
  for (const test of await db.creativeTest.findMany({ where: { workspaceId, status: "running" }, orderBy: { createdAt: "asc" } })) {
    const progress = await progressOf(test);
    const won = progress.minSampleReached && progress.leaderProbability !== null && progress.leaderProbability >= test.threshold;
    if (!won && now < test.endsAt) continue;
    const moved = await db.creativeTest.updateMany({
      where: { id: test.id, status: "running" },
      data: {
        status: "completed",
        outcome: won ? "won" : "lost",
        winnerCreativeId: won ? progress.leaderCreativeId : null,
        decidedAt: now,
        losersPending: won && test.pauseLosers,
        result: { ...progress, pausedAdIds: [], pauseError: null } as unknown as Prisma.InputJsonValue,
      },
    });
    if (moved.count === 1) decided.push(test.id);
  }
  if (options.crashBeforeTestActions)
    throw new Error("rollup stopped after deciding creative tests, before pausing losers and test.completed (simulated crash)");
  await pausePendingLosers(workspaceId);
  await emitDecided(workspaceId);
  return { decided };
}

/** Pauses the losing creatives' ads of won tests still pending, as the test's creator (through the ads domain). */
async function pausePendingLosers(workspaceId: string): Promise<void> {
  const db = getDb();
  for (const test of await db.creativeTest.findMany({ where: { workspaceId, losersPending: true } })) {
    const winner = test.winnerCreativeId;
    const ads = await db.ad.findMany({
      where: { workspaceId, adSetId: test.adSetId, creativeId: { in: test.creativeIds.filter((c) => c !== winner) }, status: "active" },
      select: { id: true },
    });
    const principal = await principalForUser(test.createdById, workspaceId);
    let paused: string[] = [];
    let pauseError: string | null = null;
    if (ads.length && principal && principal.workspaceId === workspaceId) {
      try {
        const outcome = await pauseAds(principal, { adIds: ads.map((a) => a.id) });
        paused = outcome.ads.map((a) => a.id);
        if (outcome.failed.length) pauseError = outcome.failed.map((f) => `${f.adId}: ${f.message}`).join("; ");
      } catch (err) {
        pauseError = (err as Error).message;
      }
    }
    const result = { ...(test.result as object), pausedAdIds: paused, pauseError } as unknown as Prisma.InputJsonValue;
    await db.creativeTest.updateMany({ where: { id: test.id, losersPending: true }, data: { losersPending: false, result } });
  }
}

async function emitDecided(workspaceId: string): Promise<void> {
  const db = getDb();
  for (const test of await db.creativeTest.findMany({ where: { workspaceId, status: "completed", eventId: null } })) {
    const progress = test.result as unknown as CreativeTestOut["progress"];
    const winner = progress.variants.find((v) => v.creativeId === test.winnerCreativeId);
    const event = await emitEvent({
      workspaceId,
      type: "test.completed",
      dedupeKey: `test.completed:${test.id}`,
      data: {
        test: {
          testId: test.id,
          name: test.name,
          outcome: test.outcome === "won" ? "won" : "lost",
          decidedAt: (test.decidedAt ?? new Date()).toISOString(),
          metric: test.metric,
          currency: progress.currency ?? (await adSetCurrency(test)),
          winner: winner ? { creativeId: winner.creativeId, fileName: winner.fileName, value: winner.value } : null,
          variants: progress.variants.map((v) => ({ creativeId: v.creativeId, fileName: v.fileName, value: v.value, spend: v.spend })),
        },
      },
    });
    await db.creativeTest.updateMany({ where: { id: test.id, eventId: null }, data: { eventId: event.id } });
  }
}
