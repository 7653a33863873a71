import { describe, expect, it } from "vitest";
import { compilePattern, conceptOf, parseFileName } from "./naming";

describe("file-name patterns", () => {
  it("parses a name into labels, the extension aside, with aspect ratios normalized", () => {
    expect(parseFileName("{concept}_{hook}_{aspect}", "spring_hookA_9x16.mp4")).toEqual({ concept: "spring", hook: "hookA", aspect: "9x16" });
    expect(parseFileName("{concept}_{hook}_{aspect}", "spring_hookA_9:16.png")).toEqual({ concept: "spring", hook: "hookA", aspect: "9x16" });
    expect(parseFileName("{concept}_{hook}_{aspect}", "Spring Sale_hook A_4X5.jpg")).toEqual({ concept: "Spring Sale", hook: "hook A", aspect: "4x5" });
    // Extra separators stay in the field before the aspect; the aspect must be a ratio.
    expect(parseFileName("{concept}_{hook}_{aspect}", "spring_sale_hookA_1x1.png")).toEqual({ concept: "spring", hook: "sale_hookA", aspect: "1x1" });
    expect(parseFileName("{concept}_{hook}_{aspect}", "spring_hookA_final.png")).toBeNull();
    expect(parseFileName("{concept}_{hook}_{aspect}", "banner.png")).toBeNull();
    expect(parseFileName("{brand} - {concept} ({aspect})", "Acme - Launch (16x9).mov")).toEqual({ brand: "Acme", concept: "Launch", aspect: "16x9" });
  });

  it("reads a name that almost fits ten fields without trying every way to split it", () => {
    const pattern = "{a}_{b}_{c}_{d}_{e}_{f}_{g}_{h}_{i}_{aspect}";
    // A lazy-group regex backtracks through about C(127, 9) splits of this name before giving up.
    const almost = `${"a_".repeat(127)}a`;
    expect(parseFileName(pattern, almost)).toBeNull();
    expect(parseFileName(pattern, `${"a_".repeat(120)}9x16`)).toMatchObject({ a: "a", h: "a", i: "a_".repeat(111).concat("a"), aspect: "9x16" });
  });

  it("chooses the labels a regex of lazy groups would, case-insensitively and by code point", () => {
    const patterns = ["{concept}_{hook}_{aspect}", "{a}-{b}", "X{a}x{aspect}", "{brand} - {concept} ({aspect})", "{a}_{aspect}_{b}"];
    const reference = (pattern: string, name: string) => {
      const source = pattern
        .split(/(\{[a-z_]+\})/)
        .map((piece) =>
          piece === "{aspect}" ? "(\\d{1,3}\\s*[x:×]\\s*\\d{1,3})" : piece.startsWith("{") ? "(.+?)" : piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
        )
        .join("");
      const match = new RegExp(`^${source}$`, "iu").exec(name);
      return match ? match.slice(1).map((v) => v.trim()) : null;
    };
    const alphabet = ["a", "B", "_", "-", " ", "x", "X", "9", "1", "6", ":", "×", "(", ")", "😀"];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    let matched = 0;
    for (let i = 0; i < 4000; i++) {
      const pattern = patterns[i % patterns.length]!;
      const name = Array.from({ length: 1 + Math.floor(random() * 14) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
      const values = reference(pattern, name);
      const { fields } = compilePattern(pattern);
      const expected =
        values?.every(Boolean) &&
        Object.fromEntries(fields.map((field, j) => [field, field === "aspect" ? values[j]!.toLowerCase().replace(/\s*[x:×]\s*/, "x") : values[j]]));
      expect(parseFileName(pattern, `${name}.png`), `${pattern} on ${JSON.stringify(name)}`).toEqual(expected || null);
      if (expected) matched++;
    }
    expect(matched).toBeGreaterThan(100);
    expect(parseFileName("{a}_{b}", "line\nbreak_b.png")).toBeNull();
  });

  it("refuses patterns that cannot be read unambiguously", () => {
    expect(() => compilePattern("{a}{b}")).toThrow(/need text between them/);
    expect(() => compilePattern("plain")).toThrow(/names no field/);
    expect(() => compilePattern("{a}_{a}")).toThrow(/appears twice/);
    expect(() => compilePattern("{a}_{b")).toThrow(/unbalanced/);
    expect(() => compilePattern("{A}")).toThrow(/lowercase/);
  });

  it("groups by every label but aspect", () => {
    expect(conceptOf({ concept: "Spring", hook: "A", aspect: "9x16" })).toEqual({ key: "concept=spring|hook=a", aspect: "9x16" });
    expect(conceptOf({ concept: "spring", hook: "a", aspect: "4x5" })?.key).toBe(conceptOf({ concept: "Spring", hook: "A", aspect: "9x16" })?.key);
    expect(conceptOf({ aspect: "1x1" })).toBeNull();
    expect(conceptOf(null)).toBeNull();
  });
});
