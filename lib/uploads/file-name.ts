import { UPLOAD_LIMITS } from "./limits";

/** An extension longer than this is treated as part of the name when shortening. */
const MAX_KEPT_EXTENSION = 16;

const graphemes = (text: string): string[] => Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text), (s) => s.segment);
const codePoints = (text: string) => Array.from(text).length;

/**
 * The client's file name made safe to store and show: no directory part (some
 * browsers send full paths), no control characters, NFC, at most
 * UPLOAD_LIMITS.maxFileNameLength code points. A longer name is shortened by the
 * rule in docs/decisions.md: the extension (up to 16 code points, dot included) is
 * kept, and the rest is cut after the last whole user-perceived character
 * (grapheme cluster) that fits, so no emoji, flag or accented letter is split.
 */
export function safeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "")
    .trim();
  const name = cleaned === "." || cleaned === ".." || cleaned === "" ? "file" : cleaned;
  return shortenFileName(name, UPLOAD_LIMITS.maxFileNameLength);
}

/** `name` within `max` code points, cut only between grapheme clusters, extension kept when short. */
export function shortenFileName(name: string, max: number): string {
  if (codePoints(name) <= max) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && codePoints(name.slice(dot)) <= MAX_KEPT_EXTENSION ? name.slice(dot) : "";
  const budget = max - codePoints(extension);
  let stem = "";
  let used = 0;
  for (const g of graphemes(name.slice(0, name.length - extension.length))) {
    const size = codePoints(g);
    if (used + size > budget) break;
    stem += g;
    used += size;
  }
  // A single cluster longer than the whole budget (absurd, but possible): fall back to whole code points.
  if (!stem) stem = Array.from(name).slice(0, budget).join("");
  return stem.trimEnd() + extension;
}
