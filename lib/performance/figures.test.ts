import { describe, expect, it } from "vitest";
import { metricsOf } from "@/lib/automation/metrics";
import { figuresFromSums } from "./figures";
import { type AccountSums, figuresByPrimaryCurrency } from "./primary-currency";

describe("money in figures and rule metrics", () => {
  const sums = { impressions: 10_000, clicks: 200, spendMinor: 12_000, conversions: 4, valueMinor: 48_000 };

  it("reads minor units by the account's currency: cents for USD, whole yen for JPY", () => {
    expect(figuresFromSums(sums, "USD")).toMatchObject({ spend: 120, conversionValue: 480, cpa: 30, roas: 4, ctr: 0.02 });
    expect(figuresFromSums(sums, "JPY")).toMatchObject({ spend: 12_000, conversionValue: 48_000, cpa: 3_000, roas: 4 });
  });

  it("gives rules their thresholds in major units of the account's currency", () => {
    const totals = { impressions: 10_000, reach: 8_000, clicks: 200, spendMinor: 12_000, conversions: 4, valueMinor: 48_000, frequency: null };
    expect(metricsOf(totals, "USD")).toMatchObject({ spend: 120, cpc: 0.6, cpm: 12, cpa: 30, conversion_value: 480, roas: 4 });
    // A rule "spend > 10000" on a yen account holds at ¥12,000, not only past ¥1,000,000.
    expect(metricsOf(totals, "JPY")).toMatchObject({ spend: 12_000, cpc: 60, cpm: 1_200, cpa: 3_000, conversion_value: 48_000, roas: 4 });
  });

  describe("a creative's figures from its ad accounts", () => {
    const sums = (
      platform: AccountSums["platform"],
      impressions: number,
      clicks: number,
      spendMinor: number,
      adAccountId = `acct_${platform}`,
    ): AccountSums => ({
      creativeId: "c",
      platform,
      adAccountId,
      impressions,
      clicks,
      spendMinor,
      conversions: 2,
      conversionValueMinor: 0,
      recentImpressions: impressions,
      recentClicks: clicks,
      earlierImpressions: 0,
      earlierClicks: 0,
      recentFrequencyWeight: 2 * impressions,
      earlierFrequencyWeight: 0,
    });
    const both = [sums("platform_a", 1_000, 10, 5_000), sums("platform_b", 3_000, 10, 2_000)];
    const byPlatform = (currencies: Record<AccountSums["platform"], string>) => (_account: string | null, platform: AccountSums["platform"]) =>
      currencies[platform];

    it("adds both accounts when they share a currency", () => {
      expect(figuresByPrimaryCurrency(both, byPlatform({ platform_a: "USD", platform_b: "USD" }))).toEqual([
        expect.objectContaining({ currency: "USD", impressions: 4_000, spendMinor: 7_000, conversions: 4, recentFrequency: 2, earlierFrequency: null }),
      ]);
    });

    it("takes the account with more impressions, then more clicks, then platform_a's, when the currencies differ", () => {
      const currencies = byPlatform({ platform_a: "JPY", platform_b: "USD" });
      expect(figuresByPrimaryCurrency(both, currencies)).toEqual([expect.objectContaining({ currency: "USD", impressions: 3_000, spendMinor: 2_000 })]);
      const tied = [sums("platform_a", 1_000, 10, 5_000), sums("platform_b", 1_000, 11, 2_000)];
      expect(figuresByPrimaryCurrency(tied, currencies)[0]!.currency).toBe("USD");
      const equal = [sums("platform_b", 1_000, 10, 2_000), sums("platform_a", 1_000, 10, 5_000)];
      expect(figuresByPrimaryCurrency(equal, currencies)[0]).toMatchObject({ currency: "JPY", spendMinor: 5_000 });
    });

    it("groups by each account's own currency, also two accounts of one platform", () => {
      const accounts = [
        sums("platform_a", 1_000, 10, 5_000, "acct_usd"),
        sums("platform_a", 3_000, 10, 2_000, "acct_eur"),
        sums("platform_a", 500, 5, 700, "acct_eur2"),
      ];
      const currencyOf = (account: string | null) => (account === "acct_usd" ? "USD" : "EUR");
      expect(figuresByPrimaryCurrency(accounts, currencyOf)).toEqual([expect.objectContaining({ currency: "EUR", impressions: 3_500, spendMinor: 2_700 })]);
    });
  });
});
