/**
 * Fractional indexing: an item's place in the board's stack is a string key, and a key can always be
 * made between any two others, so moving one item rewrites only that item. Keys are base-36 fractions
 * (digits 0-9a-z read as 0.d1d2d3…) that never end in "0"; they compare by plain code-unit order, which
 * is also their order under any database collation (digits before lowercase letters).
 */
const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
const BASE = DIGITS.length;
const VALID = /^[0-9a-z]*[1-9a-z]$/;

export function isOrderKey(key: string): boolean {
  return key.length <= 200 && VALID.test(key);
}

/** Code-unit comparison (what the keys are ordered by everywhere). */
export function compareOrderKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const digit = (key: string, i: number) => (i < key.length ? DIGITS.indexOf(key[i]!) : 0);

/** A key strictly between `low` ("" = the start) and `high` (null = the end). */
function between(low: string, high: string | null): string {
  // The shared prefix stays; only the first differing position matters.
  let prefix = "";
  let i = 0;
  if (high !== null) {
    while (digit(low, i) === digit(high, i) && i < high.length) prefix += DIGITS[digit(high, i++)];
  }
  const lo = digit(low, i);
  const hi = high !== null && i < high.length ? digit(high, i) : BASE;
  if (hi - lo > 1) return prefix + DIGITS[Math.floor((lo + hi) / 2)];
  // Adjacent digits: keep the low digit and go one position deeper, above the rest of `low`.
  return prefix + DIGITS[lo] + between(low.slice(i + 1), null);
}

/** A key between two neighbours (either may be missing: the start or the end of the stack). */
export function keyBetween(low: string | null, high: string | null): string {
  if (low !== null && high !== null && compareOrderKeys(low, high) >= 0) throw new Error(`keyBetween: ${low} is not below ${high}`);
  return between(low ?? "", high);
}

/**
 * The next key above `last` for appending: the last digit steps up by one while it can, so n appends
 * grow the key by about one character per 26 items instead of one per halving.
 */
export function keyAfter(last: string | null): string {
  if (last === null) return "i";
  const tail = DIGITS.indexOf(last[last.length - 1]!);
  return tail < BASE - 1 ? last.slice(0, -1) + DIGITS[tail + 1] : last + "i";
}

/** `count` ascending keys between two neighbours, spread evenly (arranging many items at once). */
export function keysBetween(low: string | null, high: string | null, count: number): string[] {
  if (count <= 0) return [];
  if (count === 1) return [keyBetween(low, high)];
  const middle = Math.floor(count / 2);
  const mid = keyBetween(low, high);
  return [...keysBetween(low, mid, middle), mid, ...keysBetween(mid, high, count - middle - 1)];
}
