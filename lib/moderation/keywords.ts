/**
 * Keyword matching for moderation rules (docs/moderation.md). Both sides are folded the same way (foldText):
 * invisible characters removed, Unicode compatibility forms unified (NFKC: fullwidth "ｓｐａｍ" is "spam"),
 * accents removed from Latin, Greek, Cyrillic, Arabic and Hebrew letters, full case folding (lower case, ß as
 * "ss", final sigma as σ), runs of whitespace as one space, katakana as hiragana. Then a keyword matches where it
 * occurs as whole words: each edge of the match is a word boundary. Between a letter or digit and anything else
 * there always is one; between two letters of a script written without spaces (Chinese, Japanese, Thai, Lao,
 * Khmer, Burmese) it is where Intl.Segmenter puts a word boundary. So "arnaque" matches "ARNAQUÉ !", "free
 * followers" matches "FREE   followers", "诈骗" matches "这是诈骗，别买", but "scam" does not match "scampi". Korean
 * attaches particles and endings to the word before them, so a keyword's end may also be followed by Hangul
 * ("스팸" matches "스팸을"), while its start still needs a boundary ("팸" does not match "스팸"). A keyword edge
 * that is itself punctuation ("www.") needs no boundary there.
 */

/** Format characters (zero-width space and joiners, word joiner, BOM, soft hyphen, bidi marks, ...) and the other default-ignorable ones (variation selectors, fillers): they show nothing, so they must not split a word. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
/**
 * Accents: the combining marks (after NFKD) on letters of the scripts where they are accents or optional vowel
 * points. Marks that spell the word elsewhere stay: Thai tones and vowels, Indic vowel signs, the kana voicing
 * marks (バカ is not ハカ).
 */
const ACCENTED = /([\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}\p{sc=Arabic}\p{sc=Hebrew}])\p{M}+/gu;
/** The case folds of Unicode's CaseFolding.txt that NFKD, removing accents and toLowerCase do not make: ß, final sigma, the old Cyrillic letter variants. */
const CASE_FOLDS: Record<string, string> = {
  ß: "ss",
  ς: "σ",
  "\u1c80": "в",
  "\u1c81": "д",
  "\u1c82": "о",
  "\u1c83": "с",
  "\u1c84": "т",
  "\u1c85": "т",
  "\u1c86": "ъ",
  "\u1c87": "ѣ",
  "\u1c88": "ꙋ",
};
const CASE_FOLD = /[ßς\u1c80-\u1c88]/gu;

/**
 * Katakana letters and iteration marks, each one code unit above its hiragana twin (ァ–ヶ are ぁ–ゖ, ヽヾ are ゝゞ;
 * voiced ones are precomposed after NFC, so バ is ば). The long-vowel mark ー and ヷ–ヺ have no hiragana form and stay.
 */
const KATAKANA = /[\u30a1-\u30f6\u30fd\u30fe]/gu;
const KATAKANA_TO_HIRAGANA = 0x60;
const foldKana = (text: string) => text.replace(KATAKANA, (ch) => String.fromCharCode(ch.charCodeAt(0) - KATAKANA_TO_HIRAGANA));

/** The form both a keyword and a comment are compared in. */
export function foldText(text: string): string {
  return foldKana(foldSpelling(text));
}

/**
 * foldText before katakana become hiragana, the same length: the form a comment is segmented in, since ICU finds
 * Japanese words by how they are spelled ("スパムメール" is one word, "すぱむめーる" six letters).
 */
function foldSpelling(text: string): string {
  return text
    .replace(INVISIBLE, "")
    .normalize("NFKD")
    .replace(/\u0345/gu, "ι") // the Greek iota subscript folds to iota: it is no accent
    .replace(ACCENTED, "$1")
    .toLowerCase()
    .replace(CASE_FOLD, (ch) => CASE_FOLDS[ch])
    .normalize("NFC")
    .replace(/\s+/gu, " ")
    .trim();
}

const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u;
const isWordChar = (ch: string) => WORD_CHAR.test(ch);
/** Scripts written without spaces between words, which Intl.Segmenter splits with a dictionary. */
const UNSPACED = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]$/u;
const segmenter = new Intl.Segmenter("en", { granularity: "word" });
/** Korean particles and endings are written onto the word before them (an eojeol: "스팸을", "iPhone을"). */
const HANGUL = /^\p{sc=Hangul}$/u;

/** The code point that ends just before index i ("" at the start). */
function charBefore(text: string, i: number): string {
  if (i <= 0) return "";
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(i - 2, i);
  }
  return text[i - 1];
}

/** The code point that starts at index i ("" at the end). */
function charAt(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? "" : String.fromCodePoint(cp);
}

/** A folded text, with its segmenter word boundaries worked out the first time one is needed (only unspaced scripts need them). */
class FoldedText {
  readonly text: string;
  private readonly spelling: string;
  private segmentStarts: Set<number> | undefined;
  /** spelling: the text folded by foldSpelling; `text` is it with kana folded, index for index. */
  constructor(spelling: string) {
    this.spelling = spelling;
    this.text = foldKana(spelling);
  }

  isBoundary(i: number): boolean {
    const before = charBefore(this.text, i);
    const after = charAt(this.text, i);
    if (!isWordChar(before) || !isWordChar(after)) return true;
    if (!UNSPACED.test(before) && !UNSPACED.test(after)) return false;
    this.segmentStarts ??= new Set(Array.from(segmenter.segment(this.spelling), (s) => s.index));
    return this.segmentStarts.has(i);
  }

  contains(keyword: string): boolean {
    if (!keyword) return false;
    const needsStart = isWordChar(charAt(keyword, 0));
    const needsEnd = isWordChar(charBefore(keyword, keyword.length));
    for (let at = this.text.indexOf(keyword); at !== -1; at = this.text.indexOf(keyword, at + 1)) {
      if ((!needsStart || this.isBoundary(at)) && (!needsEnd || this.endsWord(at + keyword.length))) return true;
    }
    return false;
  }

  /** Whether a match may end at i: at a word boundary, or where Korean particles or endings follow. */
  private endsWord(i: number): boolean {
    return HANGUL.test(charAt(this.text, i)) || this.isBoundary(i);
  }
}

/** The first rule (oldest first) whose keyword the text contains, or null. */
export function firstMatchingRule<R extends { normalized: string }>(text: string, rules: readonly R[]): R | null {
  const folded = new FoldedText(foldSpelling(text));
  return rules.find((r) => folded.contains(r.normalized)) ?? null;
}
