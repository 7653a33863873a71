import fc from "fast-check";

/** A string of a million characters: a field's limit or the body limit must refuse it, never the database. */
export const MEGABYTE_STRING = "x".repeat(1024 * 1024);

/**
 * JSON texts no JSON.stringify call can produce (1e400, -0) or survive (nesting thousands deep overflows
 * the stack of the encoder): generated values carry a marker string that toJsonText swaps for the text.
 */
const RAW_JSON_TEXTS = [
  "1e400",
  "-1e400",
  "-0",
  "123456789012345678901234567890",
  "[".repeat(100) + "1" + "]".repeat(100),
  "[".repeat(3000) + "1" + "]".repeat(3000),
  '{"a":'.repeat(3000) + "1" + "}".repeat(3000),
  '{"ids":' + "[".repeat(5000) + '"x"' + "]".repeat(5000) + "}",
];
const rawJson = (i: number) => `__RAW_JSON_${i}__`;
const RAW_MARKER = /"__RAW_JSON_(\d+)__"/g;

/** Strings a careless or hostile client sends: NUL, unpaired surrogates, controls, markup, path tricks, huge. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a\u0000b", "\u0000", "\ud800", "x\udfff", "\udc00\ud800", "\u0000\ud83d") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "\r\n",
      "\u202e\u2066",
      "../../etc/passwd",
      "%00",
      "%ED%A0%80",
      "'; DROP TABLE x;--",
      "<script>",
      "null",
      "NaN",
      "👨‍👩‍👧‍👦".repeat(40),
    ),
  },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom("\u0000", "\ud800", "\udc00", "a", "é", "\u0301", "🎉"), minLength: 1, maxLength: 300 }) },
  { weight: 1, arbitrary: fc.integer({ min: 201, max: 70_000 }).map((n) => "y".repeat(n)) },
  { weight: 1, arbitrary: fc.constant(MEGABYTE_STRING) },
);

/** Any JSON value at all, hostile or not: wrong types, huge numbers, deep nesting, unknown fields. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 2 ** 64, Number.MIN_VALUE, true, false, null),
  },
  { weight: 2, arbitrary: fc.constantFrom<unknown>([], {}, [null], { __proto__: { polluted: true } }, { constructor: { prototype: { x: 1 } } }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: RAW_JSON_TEXTS.length - 1 }).map(rawJson) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 40 }).chain((d) => fc.boolean().map((o) => nested(d, o))) },
  {
    weight: 2,
    arbitrary: fc.dictionary(
      hostileString.filter((s) => s.length < 100),
      fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      { maxKeys: 3 },
    ),
  },
  { weight: 2, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)), { maxLength: 5 }) },
);

/** A value nested `depth` levels deep (shallow enough to encode; the raw texts go deeper). */
function nested(depth: number, asObject: boolean): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
}

/** JSON text of a generated value, with the raw-text markers swapped in. */
export function toJsonText(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(RAW_MARKER, (_m, i: string) => RAW_JSON_TEXTS[Number(i)]!);
}

/** A URL path segment or query value: percent-encoded text, or raw escapes no encoder would produce. */
export function encodeUrlComponent(value: unknown): string {
  const text = typeof value === "string" ? value.replace(/__RAW_JSON_(\d+)__/g, (_m, i: string) => RAW_JSON_TEXTS[Number(i)]!) : toJsonText(value);
  if (/^%[0-9A-F]{2}/i.test(text) && text.length < 20) return text; // "%00", "%ED%A0%80": sent as is
  // Buffer.from encodes an unpaired surrogate as U+FFFD instead of throwing like encodeURIComponent.
  return [...Buffer.from(text, "utf8")]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`))
    .join("");
}
