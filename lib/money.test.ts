import { describe, expect, it } from "vitest";
import { currencyDigits, formatMinor, toMajor, toMinor } from "./money";

describe("money in minor units", () => {
  it("uses each currency's own minor unit", () => {
    expect([currencyDigits("USD"), currencyDigits("EUR"), currencyDigits("JPY"), currencyDigits("KRW"), currencyDigits("KWD")]).toEqual([2, 2, 0, 0, 3]);
    expect(toMajor(1234, "USD")).toBe(12.34);
    expect(toMajor(1234, "JPY")).toBe(1234);
    expect(toMajor(1234, "KWD")).toBe(1.234);
    expect(toMinor(12.345, "USD")).toBe(1235);
    expect(toMinor(10_000, "JPY")).toBe(10_000);
    expect(formatMinor(2000, "USD")).toBe("20.00 USD");
    expect(formatMinor(2000, "JPY")).toBe("2000 JPY");
  });

  it("takes two digits for an unknown or missing currency", () => {
    expect(currencyDigits("XXXX")).toBe(2);
    expect(currencyDigits(null)).toBe(2);
    expect(toMajor(150, undefined)).toBe(1.5);
  });
});
