import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { findVisibleCreative } from "@/lib/creatives/list-creatives";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { getCreativeTest } from "@/lib/performance/creative-tests";
import { goalOf } from "@/lib/performance/goal";
import { median, MIN_CONVERSIONS, MIN_IMPRESSIONS } from "@/lib/performance/labels";
import { minSpendMinor } from "@/lib/performance/min-spend";
import { EARLIER_DAYS, RECENT_DAYS, WINDOW_DAYS } from "@/lib/performance/window";
import { formatMinor } from "@/lib/money";
import { currenciesInUse, rollupClock } from "@/lib/performance/rollup-clock";

/**
 * The figures and comparisons behind "why did this creative win / lose / fatigue", computed from the rollup
 * (creative_performance), its label rules and the creative's tests. No model is involved: this is what
 * an explanation may say, and the numbers in it are the only numbers an explanation may contain.
 */
export interface PerformanceFact {
  key: string;
  /** The fact in words, with its figures as they may be quoted. */
  text: string;
}

export interface PerformanceFacts {
  creativeId: string;
  fileName: string;
  label: string | null;
  goal: "cpa" | "roas";
  facts: PerformanceFact[];
  /** The facts as plain sentences: the explanation when no model writes one. */
  summary: string;
}

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

export async function performanceFacts(principal: Principal, input: { creativeId: string }): Promise<PerformanceFacts> {
  authorize(principal, "ads.read");
  const creative = await findVisibleCreative(principal, input.creativeId);
  if (!creative) throw notFound("Creative");
  const db = getDb();
  const goal = await goalOf(principal.workspaceId);
  const row = await db.creativePerformance.findFirst({ where: { creativeId: creative.id, workspaceId: principal.workspaceId } });
  const currency = row?.currency ?? (await rollupClock(principal.workspaceId)).currency;
  const money = (minor: number | bigint) => formatMinor(minor, currency);
  const facts: PerformanceFact[] = [];
  const add = (key: string, text: string) => facts.push({ key, text });

  if (!row) {
    add("no_data", `No delivery in the last ${WINDOW_DAYS} days has been rolled up for this creative yet, so it has no label.`);
  } else {
    add("label", `Label: ${row.label}. The rule that gave it: ${row.reason}.`);
    const currencies = await currenciesInUse(principal.workspaceId);
    add(
      "window",
      currencies.length === 1 || row.currency === null
        ? `Figures cover the last ${WINDOW_DAYS} days of all its ads.`
        : `Figures cover the last ${WINDOW_DAYS} days of its ads on the workspace's ad accounts in ${row.currency}: money is not added across currencies, and a creative delivering in two is judged in the one with more impressions.`,
    );
    add("delivery", `Spend ${money(row.spendMinor)}, ${row.impressions} impressions, ${row.clicks} clicks, ${row.conversions} conversions.`);
    if (row.ctr !== null) add("ctr", `CTR ${pct(row.ctr)}.`);
    if (row.cpa !== null) add("cpa", `CPA ${money(row.cpa)}.`);
    if (row.roas !== null) add("roas", `ROAS ${row.roas.toFixed(2)}.`);
    if (row.frequency !== null) add("frequency", `Frequency ${row.frequency.toFixed(2)}.`);
    if (row.recentCtr !== null && row.earlierCtr !== null) {
      add("ctr_trend", `CTR over the last ${RECENT_DAYS} days ${pct(row.recentCtr)}, over the ${EARLIER_DAYS} days before ${pct(row.earlierCtr)}.`);
    }
    // The labels' median: only creatives whose money is in the same currency, past that currency's minimums (none
    // past them in a currency without a minimum spend).
    const minSpend = minSpendMinor(currency);
    const peers =
      minSpend === null
        ? []
        : await db.creativePerformance.findMany({
            where: {
              workspaceId: principal.workspaceId,
              spendMinor: { gte: minSpend },
              impressions: { gte: MIN_IMPRESSIONS },
              conversions: { gte: MIN_CONVERSIONS },
              currency: row.currency,
            },
            select: { cpa: true, roas: true },
          });
    const values = peers.map((p) => (goal === "cpa" ? p.cpa : p.roas)).filter((v): v is number => v !== null);
    const mid = median(values);
    const own = goal === "cpa" ? row.cpa : row.roas;
    if (mid !== null && own !== null && mid > 0) {
      const show = (v: number) => (goal === "cpa" ? `CPA ${money(v)}` : `ROAS ${v.toFixed(2)}`);
      const diff = (own - mid) / mid;
      const better = goal === "cpa" ? diff < 0 : diff > 0;
      add(
        "versus_median",
        `The workspace's goal is ${goal.toUpperCase()}. Against the median of ${values.length} comparable creatives (${show(mid)}), its ${show(own)} is ${pct(Math.abs(diff))} ${diff === 0 ? "different (equal)" : better ? "better" : "worse"}.`,
      );
    } else {
      add("versus_median", `The workspace's goal is ${goal.toUpperCase()}; too few comparable creatives (or conversions) to compare against a median.`);
    }
  }

  const tests = await db.creativeTest.findMany({
    where: { workspaceId: principal.workspaceId, creativeIds: { has: creative.id } },
    orderBy: { startedAt: "desc" },
    take: 3,
    select: { id: true },
  });
  for (const { id } of tests) {
    const { test } = await getCreativeTest(principal, { id });
    const mine = test.progress.variants.find((v) => v.creativeId === creative.id);
    const state =
      test.status === "completed"
        ? test.winnerCreativeId === creative.id
          ? "won it"
          : test.outcome === "won"
            ? "lost it to another variant"
            : "ended without a winner"
        : test.status === "stopped"
          ? "was stopped without a decision"
          : "is still running";
    const chance = mine ? `; its probability to be best is ${pct(mine.probabilityToBeBest)}` : "";
    add(`test_${test.id}`, `In the creative test "${test.name}" (metric ${test.metric}, ${test.creativeIds.length} variants) it ${state}${chance}.`);
  }
  return { creativeId: creative.id, fileName: creative.fileName, label: row?.label ?? null, goal, facts, summary: facts.map((f) => f.text).join(" ") };
}

/** Every number in a text, normalised ("1,234.50" → "1234.5", "2.30%" → "2.3"). */
export function numbersIn(text: string): string[] {
  return [...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => normaliseNumber(m[0]));
}

function normaliseNumber(raw: string): string {
  const n = Number(raw.replace(/,/g, ""));
  return Number.isFinite(n) ? String(n) : raw;
}

/** The numbers in `answer` that appear nowhere in the facts (nor in the creative's own name). */
export function unsupportedNumbers(answer: string, facts: PerformanceFacts): string[] {
  const allowed = new Set([...numbersIn(facts.summary), ...numbersIn(facts.fileName)]);
  return [...new Set(numbersIn(answer).filter((n) => !allowed.has(n)))];
}
