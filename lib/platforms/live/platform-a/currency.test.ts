import { describe, expect, it } from "vitest";
import { currencyDigits } from "@/lib/money";
import { fromMetaAmount, META_CURRENCY_OFFSETS, metaOffset, toMetaAmount } from "./currency";

/** Meta's "Currency codes" table, offset 1 (every other currency there has offset 100). */
const OFFSET_ONE = ["CLP", "COP", "CRC", "HUF", "ISK", "IDR", "JPY", "KRW", "PYG", "TWD", "VND"];

describe("Meta's currency offsets against our minor units (ISO 4217 digits)", () => {
  it("holds Meta's table: 66 currencies, offset 1 for exactly the eleven it names", () => {
    expect(Object.keys(META_CURRENCY_OFFSETS)).toHaveLength(66);
    expect(
      Object.entries(META_CURRENCY_OFFSETS)
        .filter(([, o]) => o === 1)
        .map(([c]) => c)
        .sort(),
    ).toEqual([...OFFSET_ONE].sort());
  });

  it("names every currency whose Meta offset is not its minor unit: TWD, CRC, BHD, JOD, PKR", () => {
    const differ = Object.keys(META_CURRENCY_OFFSETS).filter((c) => 10 ** currencyDigits(c) !== metaOffset(c));
    // If this list changes, Intl's currency data changed under lib/money: check the conversions below again.
    expect(differ.sort()).toEqual(["BHD", "CRC", "JOD", "PKR", "TWD"]);
    expect(differ.map((c) => [c, currencyDigits(c), metaOffset(c)])).toEqual([
      ["BHD", 3, 100],
      ["CRC", 2, 1],
      ["JOD", 3, 100],
      ["PKR", 0, 100],
      ["TWD", 2, 1],
    ]);
  });

  it("converts those at the wire: NT$500.00 is 500 on Meta, BHD 5.000 is 500, PKR 500 is 50000; and back", () => {
    expect(toMetaAmount(50_000, "TWD")).toBe(500);
    expect(fromMetaAmount(500, "TWD")).toBe(50_000);
    expect(toMetaAmount(1_000_000, "CRC")).toBe(10_000);
    expect(fromMetaAmount(10_000, "CRC")).toBe(1_000_000);
    expect(toMetaAmount(5_000, "BHD")).toBe(500);
    expect(fromMetaAmount(500, "BHD")).toBe(5_000);
    expect(toMetaAmount(5_000, "JOD")).toBe(500);
    expect(fromMetaAmount(500, "JOD")).toBe(5_000);
    expect(toMetaAmount(500, "PKR")).toBe(50_000);
    expect(fromMetaAmount(50_000, "PKR")).toBe(500);
    // Meta holds PKR to the paisa; our PKR has no minor unit, so a budget set on Meta rounds to the rupee.
    expect(fromMetaAmount(50_049, "PKR")).toBe(500);
    expect(fromMetaAmount(50_050, "PKR")).toBe(501);
  });

  it("leaves every other currency as it is: minor units are Meta's units (USD cents, JPY and KRW whole)", () => {
    for (const c of Object.keys(META_CURRENCY_OFFSETS).filter((c) => !["BHD", "CRC", "JOD", "PKR", "TWD"].includes(c))) {
      expect([c, toMetaAmount(12_345, c), fromMetaAmount(12_345, c)]).toEqual([c, 12_345, 12_345]);
    }
  });

  it("refuses an amount Meta cannot express, naming the nearest ones, and a currency Meta's table lacks", () => {
    expect(() => toMetaAmount(12_345, "TWD")).toThrow(/steps of 1\.00 TWD; 123\.45 TWD is not one \(use 123\.00 TWD or 124\.00 TWD\)/);
    expect(() => toMetaAmount(1_234, "BHD")).toThrow(/steps of 0\.010 BHD; 1\.234 BHD is not one/);
    expect(() => toMetaAmount(12_345, "TWD")).toThrow(expect.objectContaining({ code: "invalid_input", retryable: false }));
    expect(() => toMetaAmount(100, "XTS")).toThrow(/XTS is not in Meta's currency table/);
    expect(() => fromMetaAmount(100, "XTS")).toThrow(expect.objectContaining({ code: "invalid_input" }));
  });
});
