import { describe, expect, it } from "vitest";
import { compareOrderKeys, isOrderKey, keyAfter, keyBetween, keysBetween } from "./order-key";

describe("order keys", () => {
  it("makes a key strictly between any two, at the ends and between neighbours", () => {
    const cases: [string | null, string | null][] = [
      [null, null],
      [null, "i"],
      ["i", null],
      ["i", "j"],
      ["1", "2"],
      ["az", "b"],
      ["a", "a1"],
      ["zz", null],
      [null, "01"],
      ["0z", "1"],
    ];
    for (const [low, high] of cases) {
      const key = keyBetween(low, high);
      expect(isOrderKey(key), `${low}..${high} -> ${key}`).toBe(true);
      if (low !== null) expect(compareOrderKeys(low, key)).toBe(-1);
      if (high !== null) expect(compareOrderKeys(key, high)).toBe(-1);
    }
  });

  it("keeps inserting between the same two neighbours without ever colliding", () => {
    let low = "i";
    const high = "j";
    for (let n = 0; n < 300; n++) {
      const key = keyBetween(low, high);
      expect(compareOrderKeys(low, key)).toBe(-1);
      expect(compareOrderKeys(key, high)).toBe(-1);
      low = key;
    }
  });

  it("appends 1,000 items with short, rising keys", () => {
    let last: string | null = null;
    for (let n = 0; n < 1000; n++) {
      const key = keyAfter(last);
      expect(isOrderKey(key)).toBe(true);
      if (last !== null) expect(compareOrderKeys(last, key)).toBe(-1);
      last = key;
    }
    expect(last!.length).toBeLessThan(60);
  });

  it("spreads many keys between two neighbours in order", () => {
    const keys = keysBetween("b", "c", 500);
    expect(new Set(keys).size).toBe(500);
    expect([...keys].sort(compareOrderKeys)).toEqual(keys);
    expect(compareOrderKeys("b", keys[0]!)).toBe(-1);
    expect(compareOrderKeys(keys.at(-1)!, "c")).toBe(-1);
    expect(Math.max(...keys.map((k) => k.length))).toBeLessThan(8);
  });

  it("refuses malformed keys", () => {
    for (const bad of ["", "a0", "A", "a-b"]) expect(isOrderKey(bad)).toBe(false);
  });
});
