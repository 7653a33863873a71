import { describe, expect, it } from "vitest";
import { META_CURRENCY_OFFSETS } from "@/lib/platforms/live/platform-a/currency";
import { labelCreatives, type CreativeFigures } from "./labels";
import { MIN_SPEND_MAJOR, minSpendMinor } from "./min-spend";

const fig = (creativeId: string, spendMinor: number, conversions: number, extra: Partial<CreativeFigures> = {}): CreativeFigures => ({
  creativeId,
  currency: "USD",
  impressions: 50_000,
  clicks: 500,
  spendMinor,
  conversions,
  conversionValueMinor: conversions * 5_000,
  recentImpressions: 5_000,
  recentClicks: 50,
  earlierImpressions: 20_000,
  earlierClicks: 200,
  recentFrequency: 2,
  earlierFrequency: 1.9,
  ...extra,
});

describe("creative labels", () => {
  it("compares CPA with the median of the creatives past the minimums: winner at 0.8x or better, loser at 1.25x or worse", () => {
    // CPAs 10, 20, 25, 30 -> median 22.5; 10 <= 18 wins, 30 >= 28.125 loses, 20 and 25 are in the band.
    const labels = labelCreatives([fig("a", 10_000, 100), fig("b", 20_000, 100), fig("c", 25_000, 100), fig("d", 30_000, 100)], "cpa");
    expect([...labels.values()].map((l) => l.label)).toEqual(["winner", "neutral", "neutral", "loser"]);
    expect(labels.get("a")!.reason).toMatch(/^CPA 1\.00 against the median CPA 2\.25/);
  });

  it("mirrors the rule for ROAS (higher is better)", () => {
    // Same value per conversion: ROAS falls as CPA rises.
    const labels = labelCreatives([fig("a", 10_000, 100), fig("b", 20_000, 100), fig("c", 25_000, 100), fig("d", 30_000, 100)], "roas");
    expect(labels.get("a")!.label).toBe("winner");
    expect(labels.get("d")!.label).toBe("loser");
  });

  it("keeps creatives below the minimum spend or impressions, or without enough peers, neutral", () => {
    const labels = labelCreatives([fig("a", 1_999, 10), fig("b", 20_000, 100, { impressions: 999 }), fig("c", 20_000, 100), fig("d", 90_000, 100)], "cpa");
    expect(labels.get("a")!.reason).toMatch(/Below the minimum/);
    expect(labels.get("b")!.label).toBe("neutral");
    expect(labels.get("d")!.label).toBe("neutral"); // only two creatives are eligible: no median
    expect(labels.get("d")!.reason).toMatch(/no median/);
  });

  it("labels fatigued when recent CTR is at most 75% of the earlier CTR while frequency rose by 0.2, before comparing CPA", () => {
    const tired = fig("t", 10_000, 100, { recentClicks: 30, recentFrequency: 3.5, earlierFrequency: 2.8 }); // 0.6% vs 1%
    const holding = fig("h", 10_000, 100, { recentClicks: 30, recentFrequency: 2.95, earlierFrequency: 2.8 }); // frequency barely rose
    const mild = fig("m", 10_000, 100, { recentClicks: 38, recentFrequency: 3.5, earlierFrequency: 2.8 }); // 0.76% of 1%: not clearly below
    const labels = labelCreatives([tired, holding, mild, fig("x", 30_000, 100), fig("y", 30_000, 100)], "cpa");
    expect(labels.get("t")!).toMatchObject({
      label: "fatigued",
      reason: expect.stringMatching(/CTR fell from 1\.00% to 0\.60%.*frequency rose from 2\.80 to 3\.50/),
    });
    expect(labels.get("h")!.label).not.toBe("fatigued");
    expect(labels.get("m")!.label).not.toBe("fatigued");
  });

  it("keeps a fatigued creative fatigued until its recent CTR is back above 85% of before, so noise around 75% does not flip it", () => {
    const at = (id: string, recentClicks: number) => fig(id, 10_000, 100, { recentClicks, recentFrequency: 3.5, earlierFrequency: 2.8 });
    const peers = [fig("x", 30_000, 100), fig("y", 30_000, 100)];
    // Recent CTR against 1% before: 0.80% (between the two bars), 0.85% (on the recovery bar), 0.86% (past it).
    const rows = [at("between", 40), at("on", 42.5), at("past", 43), ...peers];
    const fresh = labelCreatives(rows, "cpa");
    expect(["between", "on", "past"].map((id) => fresh.get(id)!.label)).toEqual(["neutral", "neutral", "neutral"]);
    const wasFatigued = new Map(["between", "on", "past", "x"].map((id) => [id, "fatigued" as const]));
    const held = labelCreatives(rows, "cpa", wasFatigued);
    expect(held.get("between")).toEqual({
      label: "fatigued",
      reason: "CTR fell from 1.00% to 0.80% (fatigued until it is back above 85% of before) while frequency rose from 2.80 to 3.50",
    });
    expect(held.get("on")!.label).toBe("fatigued");
    expect(held.get("past")!.label).toBe("neutral");
    // A fatigued creative whose frequency no longer rises is not held either: it is compared on CPA again.
    expect(held.get("x")!.label).not.toBe("fatigued");
  });

  it("calls a creative without conversions a loser once it spent twice the median CPA", () => {
    // Median CPA 30.00: no conversion for 70.00 loses; for 50.00 it is too early to say.
    const labels = labelCreatives([fig("a", 300_000, 100), fig("b", 300_000, 100), fig("c", 300_000, 100), fig("w", 7_000, 0), fig("z", 5_000, 0)], "cpa");
    expect(labels.get("w")!).toMatchObject({ label: "loser", reason: expect.stringMatching(/twice the median CPA 30\.00/) });
    expect(labels.get("z")!).toMatchObject({ label: "neutral", reason: expect.stringMatching(/fewer than the 3 needed/) });
  });

  it("compares each creative only with the creatives whose money is in its currency, and names the currency then", () => {
    // Yen CPAs 1,500 to 2,500 and cent CPAs 100 to 300 (¥ and $ of similar worth): one median of both would make
    // every yen creative a loser and every dollar one a winner.
    const yen = (id: string, spendMinor: number) => fig(id, spendMinor, 100, { currency: "JPY" });
    const labels = labelCreatives(
      [yen("y1", 150_000), yen("y2", 200_000), yen("y3", 250_000), fig("d1", 10_000, 100), fig("d2", 20_000, 100), fig("d3", 30_000, 100)],
      "cpa",
    );
    expect(["y1", "y2", "y3", "d1", "d2", "d3"].map((id) => labels.get(id)!.label)).toEqual(["winner", "neutral", "loser", "winner", "neutral", "loser"]);
    expect(labels.get("y2")!.reason).toBe("CPA 2000 JPY within the band around the median CPA 2000 JPY");
    expect(labels.get("d1")!.reason).toMatch(/^CPA 1\.00 USD against the median CPA 2\.00 USD/);
    // Each currency needs its own three peers.
    const few = labelCreatives([yen("y1", 150_000), yen("y2", 200_000), fig("d1", 10_000, 100), fig("d2", 20_000, 100), fig("d3", 30_000, 100)], "cpa");
    expect(few.get("y1")!.reason).toMatch(/^Fewer than 3 creatives in JPY past/);
    expect(few.get("d1")!.label).toBe("winner");
  });

  it("takes the minimum spend from the creative's currency, about 20 US dollars in it, and names it in the reason", () => {
    // Three peers past every minimum in each currency, and the creatives on the edge of it: 20.00 USD, 3,000 JPY, 30,000 KRW.
    const inCurrency = (currency: string, unit: number) => [
      ...["p1", "p2", "p3"].map((id) => fig(`${currency}_${id}`, 100_000 * unit, 100, { currency })),
      fig(`${currency}_edge`, 2_000 * unit, 3, { currency }),
    ];
    const labels = labelCreatives(
      [
        ...inCurrency("USD", 1),
        fig("usd_under", 1_999, 3),
        ...inCurrency("JPY", 1.5),
        fig("jpy_under", 2_999, 3, { currency: "JPY" }),
        ...inCurrency("KRW", 15),
        // ₩15,000 (about $10): 2,000 minor units counted it as enough.
        fig("krw_under", 15_000, 3, { currency: "KRW" }),
      ],
      "cpa",
    );
    // At the minimum each is compared (its CPA far below the peers' median: a winner); under it, it is not.
    expect(["USD_edge", "JPY_edge", "KRW_edge"].map((id) => labels.get(id)!.label)).toEqual(["winner", "winner", "winner"]);
    expect(labels.get("usd_under")!.reason).toBe("Below the minimum to compare: spend 19.99 USD of 20.00 USD, 50000 of 1000 impressions");
    expect(labels.get("jpy_under")!.reason).toBe("Below the minimum to compare: spend 2999 JPY of 3000 JPY, 50000 of 1000 impressions");
    expect(labels.get("krw_under")!).toEqual({
      label: "neutral",
      reason: "Below the minimum to compare: spend 15000 KRW of 30000 KRW, 50000 of 1000 impressions",
    });
    // KRW creatives alone: the reasons do not name the currency, the minimum is still the won's.
    expect(labelCreatives([fig("k", 29_999, 3, { currency: "KRW" })], "cpa").get("k")!.reason).toMatch(/^Below the minimum to compare: spend 29999 of 30000,/);
  });

  it("has a minimum spend for every currency Meta bills ad accounts in, in whole minor units, and compares none in a currency without one", () => {
    expect(Object.keys(META_CURRENCY_OFFSETS).filter((c) => minSpendMinor(c) === null)).toEqual([]);
    for (const c of Object.keys(MIN_SPEND_MAJOR)) expect([c, Number.isInteger(minSpendMinor(c)) && minSpendMinor(c)! > 0]).toEqual([c, true]);
    expect([minSpendMinor("USD"), minSpendMinor("EUR"), minSpendMinor("JPY"), minSpendMinor("KRW"), minSpendMinor("BHD")]).toEqual([
      2_000, 2_000, 3_000, 30_000, 7_500,
    ]);
    expect(minSpendMinor("constructor")).toBeNull();
    // XTS (ISO's code for testing) is in no table: no guess at its worth, its creatives stay neutral whatever they spend.
    const labels = labelCreatives(
      ["a", "b", "c", "d"].map((id, i) => fig(id, 100_000 * (i + 1), 100, { currency: "XTS" })),
      "cpa",
    );
    expect([...labels.values()]).toEqual(Array(4).fill({ label: "neutral", reason: "No minimum spend is set for XTS: creatives in it are not compared" }));
  });
});
