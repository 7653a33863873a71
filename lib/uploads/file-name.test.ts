import { describe, expect, it } from "vitest";
import { UPLOAD_LIMITS } from "./limits";
import { safeFileName } from "./file-name";

const graphemes = (s: string) => Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(s), (g) => g.segment);
const codePoints = (s: string) => Array.from(s).length;

/** Names of about 1 KB (UTF-8) whose characters are several code points or UTF-16 units each. */
const LONG_NAMES: Record<string, string> = {
  "family emoji (ZWJ sequences)": "👨‍👩‍👧‍👦".repeat(40) + ".png",
  "flags (regional indicator pairs)": "a" + "🇫🇷🇩🇪".repeat(130) + ".jpg",
  "combining accents": "e\u0301".repeat(400) + ".gif",
  "Hangul jamo": "\u1100\u1161\u11a8".repeat(120) + ".webp",
  "CJK and astral": "漢字𠀋".repeat(120) + ".mp4",
  "skin tones, odd offset": "x" + "👍🏽".repeat(300) + ".mov",
  "no extension": "🇯🇵".repeat(300),
  "absurd extension": "name." + "é".repeat(600),
};

describe("safeFileName shortens long names at a character boundary", () => {
  for (const [label, raw] of Object.entries(LONG_NAMES)) {
    it(`${label}: at most ${UPLOAD_LIMITS.maxFileNameLength} code points, never cut inside a character`, () => {
      expect(Buffer.byteLength(raw)).toBeGreaterThan(1000);
      const name = safeFileName(raw);
      expect(codePoints(name)).toBeLessThanOrEqual(UPLOAD_LIMITS.maxFileNameLength);
      expect(name.isWellFormed()).toBe(true);
      // Every user-perceived character of the result is one of the original's, in order: the stem is a
      // grapheme prefix of the original stem and the extension is kept whole when it is short.
      const dot = raw.lastIndexOf(".");
      const ext = dot > 0 && codePoints(raw.slice(dot)) <= 16 ? raw.slice(dot) : "";
      expect(name.endsWith(ext)).toBe(true);
      const stem = graphemes(name.slice(0, name.length - ext.length));
      expect(stem.length).toBeGreaterThan(0);
      expect(graphemes(raw.normalize("NFC")).slice(0, stem.length)).toEqual(stem);
    });
  }

  it("keeps names within the limit untouched (NFC, no directories, no controls)", () => {
    expect(safeFileName("C:\\Users\\me\\hero shot.png")).toBe("hero shot.png");
    expect(safeFileName("e\u0301t\u00e9.png")).toBe("\u00e9t\u00e9.png");
    expect(safeFileName("a\tb\u0007.png")).toBe("ab.png");
    expect(safeFileName("..")).toBe("file");
    const exact = "a".repeat(UPLOAD_LIMITS.maxFileNameLength - 4) + ".png";
    expect(safeFileName(exact)).toBe(exact);
  });
});
