import type { Platform } from "@/lib/generated/prisma/enums";
import type { CreativeFigures, DeliverySums } from "./labels";
import type { AccountCurrencies } from "./rollup-clock";

/**
 * One creative's last-30-days sums on one ad account, money in that account's minor units, with the frequency
 * weighted by impressions (sum of frequency × impressions) so that sums of two accounts can be averaged.
 */
export interface AccountSums extends DeliverySums {
  platform: Platform;
  /** null: ads whose campaign is not known (its platform's currency applies). */
  adAccountId: string | null;
  recentFrequencyWeight: number;
  earlierFrequencyWeight: number;
}

type Group = Omit<AccountSums, "creativeId" | "platform" | "adAccountId"> & { currency: string; hasPlatformA: boolean };

const ADDED = [
  "impressions",
  "clicks",
  "spendMinor",
  "conversions",
  "conversionValueMinor",
  "recentImpressions",
  "recentClicks",
  "earlierImpressions",
  "earlierClicks",
  "recentFrequencyWeight",
  "earlierFrequencyWeight",
] as const;

/** The group the creative is judged in: more impressions (a measure free of currency), then more clicks, then platform_a's. */
function primary(a: Group, b: Group): Group {
  if (a.impressions !== b.impressions) return a.impressions > b.impressions ? a : b;
  if (a.clicks !== b.clicks) return a.clicks > b.clicks ? a : b;
  return b.hasPlatformA ? b : a;
}

/**
 * Each creative's figures from its ad accounts' sums, money never added across currencies: the sums of accounts in one
 * currency are added (of one platform or both), and a creative delivering in two currencies takes the figures of its
 * primary group (`primary`) and that group's currency.
 */
export function figuresByPrimaryCurrency(sums: readonly AccountSums[], currencyOf: AccountCurrencies): CreativeFigures[] {
  const groups = new Map<string, Map<string, Group>>();
  for (const s of sums) {
    const currency = currencyOf(s.adAccountId, s.platform);
    const byCurrency = groups.get(s.creativeId) ?? new Map<string, Group>();
    groups.set(s.creativeId, byCurrency);
    const group = byCurrency.get(currency);
    if (!group) {
      const { creativeId: _creative, platform, adAccountId: _account, ...figures } = s;
      byCurrency.set(currency, { ...figures, currency, hasPlatformA: platform === "platform_a" });
      continue;
    }
    for (const key of ADDED) group[key] += s[key];
    group.hasPlatformA ||= s.platform === "platform_a";
  }
  return [...groups].map(([creativeId, byCurrency]) => {
    const g = [...byCurrency.values()].reduce(primary);
    return {
      creativeId,
      currency: g.currency,
      impressions: g.impressions,
      clicks: g.clicks,
      spendMinor: g.spendMinor,
      conversions: g.conversions,
      conversionValueMinor: g.conversionValueMinor,
      recentImpressions: g.recentImpressions,
      recentClicks: g.recentClicks,
      earlierImpressions: g.earlierImpressions,
      earlierClicks: g.earlierClicks,
      recentFrequency: g.recentImpressions > 0 ? g.recentFrequencyWeight / g.recentImpressions : null,
      earlierFrequency: g.earlierImpressions > 0 ? g.earlierFrequencyWeight / g.earlierImpressions : null,
    };
  });
}
