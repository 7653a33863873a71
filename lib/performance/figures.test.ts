import { describe, expect, it } from "vitest";
import { metricsOf } from "@/lib/automation/metrics";
import { figuresFromSums } from "./figures";

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
});
