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
