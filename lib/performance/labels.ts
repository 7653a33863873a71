import { currencyDigits, toMajor } from "@/lib/money";
import { minSpendMinor } from "./min-spend";

/**
 * The label rules (docs/performance.md has them in words, with these numbers). Pure: the rollup
 * hands in each creative's last-30-days figures and gets a label and a reason back.
 */

export const PERFORMANCE_LABELS = ["winner", "loser", "fatigued", "neutral"] as const;
export type PerformanceLabel = (typeof PERFORMANCE_LABELS)[number];
export const PERFORMANCE_GOALS = ["cpa", "roas"] as const;
export type PerformanceGoal = (typeof PERFORMANCE_GOALS)[number];

/** A creative is compared only past its currency's minimum spend (./min-spend.ts) and these (30 days, all its ads)... */
export const MIN_IMPRESSIONS = 1_000;
/** ...and with enough conversions for its CPA or ROAS to mean something. */
export const MIN_CONVERSIONS = 3;
/** The account median needs at least this many eligible creatives. */
export const MIN_PEERS = 3;
/** Winner: at least 20% better than the median; loser: at least 25% worse (CPA x1.25 or ROAS x0.8). */
export const WINNER_FACTOR = 0.8;
export const LOSER_FACTOR = 1.25;
/** Fatigue: recent CTR (last 3 days) at most 75% of the 11 days before, while frequency rose by 0.2 or more. */
export const FATIGUE_CTR_RATIO = 0.75;
/**
 * A fatigued creative stays fatigued until its recent CTR is back above 85% of before: a day's noise around 75%
 * would otherwise flip the label (and send creative.status_changed) back and forth.
 */
export const FATIGUE_RECOVERY_CTR_RATIO = 0.85;
export const FATIGUE_FREQUENCY_RISE = 0.2;
export const FATIGUE_MIN_IMPRESSIONS = 1_000;

/** A creative's delivery over the last 30 days (money in minor units of one currency), and over the fatigue windows. */
export interface DeliverySums {
  creativeId: string;
  impressions: number;
  clicks: number;
  spendMinor: number;
  conversions: number;
  conversionValueMinor: number;
  recentImpressions: number;
  recentClicks: number;
  earlierImpressions: number;
  earlierClicks: number;
}

export interface CreativeFigures extends DeliverySums {
  /** The currency the money is in: one group of the creative's ad accounts, never a sum across currencies. */
  currency: string;
  recentFrequency: number | null;
  earlierFrequency: number | null;
}

export interface Derived {
  ctr: number | null;
  cpa: number | null;
  roas: number | null;
  recentCtr: number | null;
  earlierCtr: number | null;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

export function derive(f: CreativeFigures): Derived {
  return {
    ctr: ratio(f.clicks, f.impressions),
    cpa: f.conversions > 0 ? f.spendMinor / f.conversions : null,
    roas: ratio(f.conversionValueMinor, f.spendMinor),
    recentCtr: ratio(f.recentClicks, f.recentImpressions),
    earlierCtr: ratio(f.earlierClicks, f.earlierImpressions),
  };
}

export function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

/** Why a creative is fatigued, or null when it is not; one already fatigued holds the label up to the recovery ratio. */
function fatigue(f: CreativeFigures, d: Derived, wasFatigued: boolean): string | null {
  if (f.recentImpressions < FATIGUE_MIN_IMPRESSIONS || f.earlierImpressions < FATIGUE_MIN_IMPRESSIONS) return null;
  if (d.recentCtr === null || d.earlierCtr === null || d.earlierCtr === 0) return null;
  if (f.recentFrequency === null || f.earlierFrequency === null) return null;
  const bar = wasFatigued ? FATIGUE_RECOVERY_CTR_RATIO : FATIGUE_CTR_RATIO;
  if (d.recentCtr > bar * d.earlierCtr) return null;
  if (f.recentFrequency - f.earlierFrequency < FATIGUE_FREQUENCY_RISE) return null;
  const measure = wasFatigued ? `fatigued until it is back above ${bar * 100}% of before` : `at most ${bar * 100}% of before`;
  return `CTR fell from ${pct(d.earlierCtr)} to ${pct(d.recentCtr)} (${measure}) while frequency rose from ${f.earlierFrequency.toFixed(2)} to ${f.recentFrequency.toFixed(2)}`;
}

/**
 * Labels every creative of one workspace against the median on its goal of the workspace's creatives whose money is in
 * the same currency (a median of yen and dollar CPAs means nothing; one currency, the usual case, is one comparison).
 * `current` holds the labels the creatives have now (a fatigued one recovers only past FATIGUE_RECOVERY_CTR_RATIO);
 * a creative not in it is new.
 */
export function labelCreatives(
  rows: CreativeFigures[],
  goal: PerformanceGoal,
  current: ReadonlyMap<string, PerformanceLabel> = new Map(),
): Map<string, { label: PerformanceLabel; reason: string }> {
  const byCurrency = Map.groupBy(rows, (f) => f.currency);
  const out = new Map<string, { label: PerformanceLabel; reason: string }>();
  for (const [currency, group] of byCurrency) {
    for (const [id, labelled] of labelGroup(group, goal, current, currency, byCurrency.size > 1)) out.set(id, labelled);
  }
  // In the order the rows came.
  return new Map(rows.map((f) => [f.creativeId, out.get(f.creativeId)!]));
}

/** The rules over the creatives of one currency; with several currencies in the workspace, reasons name theirs. */
function labelGroup(
  rows: CreativeFigures[],
  goal: PerformanceGoal,
  current: ReadonlyMap<string, PerformanceLabel>,
  currency: string,
  nameCurrency: boolean,
): Map<string, { label: PerformanceLabel; reason: string }> {
  const money = (minor: number) => `${toMajor(minor, currency).toFixed(currencyDigits(currency))}${nameCurrency ? ` ${currency}` : ""}`;
  const creatives = nameCurrency ? `creatives in ${currency}` : "creatives";
  const out = new Map<string, { label: PerformanceLabel; reason: string }>();
  const value = (f: CreativeFigures) => (goal === "cpa" ? derive(f).cpa! : derive(f).roas!);
  const minSpend = minSpendMinor(currency);
  const pastMinimums = (f: CreativeFigures) => minSpend !== null && f.spendMinor >= minSpend && f.impressions >= MIN_IMPRESSIONS;
  const peers = rows.filter((f) => pastMinimums(f) && f.conversions >= MIN_CONVERSIONS);
  const mid = peers.length >= MIN_PEERS ? median(peers.map(value)) : null;
  const show = (v: number) => (goal === "cpa" ? `CPA ${money(v)}` : `ROAS ${v.toFixed(2)}`);
  for (const f of rows) {
    const d = derive(f);
    const tired = fatigue(f, d, current.get(f.creativeId) === "fatigued");
    if (tired) {
      out.set(f.creativeId, { label: "fatigued", reason: tired });
      continue;
    }
    if (minSpend === null) {
      out.set(f.creativeId, { label: "neutral", reason: `No minimum spend is set for ${currency}: creatives in it are not compared` });
      continue;
    }
    if (!pastMinimums(f)) {
      out.set(f.creativeId, {
        label: "neutral",
        reason: `Below the minimum to compare: spend ${money(f.spendMinor)} of ${money(minSpend)}, ${f.impressions} of ${MIN_IMPRESSIONS} impressions`,
      });
      continue;
    }
    if (mid === null) {
      out.set(f.creativeId, {
        label: "neutral",
        reason: `Fewer than ${MIN_PEERS} ${creatives} past the minimum spend, impressions and ${MIN_CONVERSIONS} conversions: no median to compare with`,
      });
      continue;
    }
    if (f.conversions < MIN_CONVERSIONS) {
      // No conversions at twice the median's cost per conversion is a clear loser on CPA.
      if (goal === "cpa" && f.spendMinor >= 2 * mid) {
        out.set(f.creativeId, { label: "loser", reason: `${f.conversions} conversions for ${money(f.spendMinor)} spent, twice the median CPA ${money(mid)}` });
      } else {
        out.set(f.creativeId, { label: "neutral", reason: `${f.conversions} conversions: fewer than the ${MIN_CONVERSIONS} needed to compare` });
      }
      continue;
    }
    const v = value(f);
    const better = goal === "cpa" ? v <= WINNER_FACTOR * mid : v >= LOSER_FACTOR * mid;
    const worse = goal === "cpa" ? v >= LOSER_FACTOR * mid : v <= WINNER_FACTOR * mid;
    const winBar = goal === "cpa" ? `at most ${WINNER_FACTOR}x` : `at least ${LOSER_FACTOR}x`;
    const loseBar = goal === "cpa" ? `at least ${LOSER_FACTOR}x` : `at most ${WINNER_FACTOR}x`;
    if (better) out.set(f.creativeId, { label: "winner", reason: `${show(v)} against the median ${show(mid)}: ${winBar} the median` });
    else if (worse) out.set(f.creativeId, { label: "loser", reason: `${show(v)} against the median ${show(mid)}: ${loseBar} the median` });
    else out.set(f.creativeId, { label: "neutral", reason: `${show(v)} within the band around the median ${show(mid)}` });
  }
  return out;
}
