/**
 * Keyword matching for moderation rules (docs/moderation.md): both sides are folded (Unicode NFKD,
 * combining marks removed, lower case, runs of whitespace as one space), then a keyword matches
 * where it occurs as whole words: the characters just outside the match are not letters or digits.
 * So "arnaque" matches "ARNAQUÉ !" and "free followers" matches "FREE   followers", but "scam" does
 * not match "scampi". A keyword edge that is itself punctuation ("www.") needs no boundary there.
 */
export function foldText(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/gu, " ").trim();
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWordChar = (ch: string | undefined) => ch !== undefined && WORD_CHAR.test(ch);

/** Whether the folded keyword occurs as whole words in the folded text. */
export function matchesFolded(foldedText: string, foldedKeyword: string): boolean {
  if (!foldedKeyword) return false;
  const needsStart = isWordChar(foldedKeyword[0]);
  const needsEnd = isWordChar(foldedKeyword[foldedKeyword.length - 1]);
  for (let at = foldedText.indexOf(foldedKeyword); at !== -1; at = foldedText.indexOf(foldedKeyword, at + 1)) {
    const before = foldedText[at - 1];
    const after = foldedText[at + foldedKeyword.length];
    if ((!needsStart || !isWordChar(before)) && (!needsEnd || !isWordChar(after))) return true;
  }
  return false;
}

/** The first rule (oldest first) whose keyword the text contains, or null. */
export function firstMatchingRule<R extends { normalized: string }>(text: string, rules: readonly R[]): R | null {
  const folded = foldText(text);
  return rules.find((r) => matchesFolded(folded, r.normalized)) ?? null;
}
