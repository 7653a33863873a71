import { describe, expect, it } from "vitest";
import { firstMatchingRule, foldText } from "./keywords";

const matches = (text: string, keyword: string) => firstMatchingRule(text, [{ normalized: foldText(keyword) }]) !== null;

describe("moderation keywords", () => {
  it("fold case, accents and compatibility forms", () => {
    expect(foldText("ARNAQUÉ  Ça\tva")).toBe("arnaque ca va");
    expect(foldText("ﬁne")).toBe("fine");
    expect(matches("C'est une ARNAQUÉ !", "arnaqué")).toBe(true);
    expect(matches("Crème brûlée", "CREME BRULEE")).toBe(true);
    // Accents go (as they always did), so "résumé" is "resume".
    expect(matches("Send your resume", "résumé")).toBe(true);
  });
  it("match whole words only, phrases across whitespace, punctuation edges freely", () => {
    expect(matches("Scampi is better", "scam")).toBe(false);
    expect(matches("Scam. Don't buy.", "scam")).toBe(true);
    expect(matches("a scammer", "scam")).toBe(false);
    expect(matches("Check my profile for FREE\nfollowers!!!", "free followers")).toBe(true);
    expect(matches("visit www.cheap-deals.example", "www.")).toBe(true);
    expect(matches("discount2go", "discount")).toBe(false);
  });
  it("picks the first matching rule", () => {
    const rules = [{ normalized: "spam" }, { normalized: "scam" }];
    expect(firstMatchingRule("SCAM!", rules)).toEqual({ normalized: "scam" });
    expect(firstMatchingRule("fine", rules)).toBeNull();
    const cjk = [{ normalized: foldText("刷单") }, { normalized: foldText("诈骗") }];
    expect(firstMatchingRule("这是诈骗，别买", cjk)).toEqual({ normalized: "诈骗" });
  });

  it("find Chinese words inside a sentence written without spaces, at its word boundaries", () => {
    expect(matches("这是诈骗，别买", "诈骗")).toBe(true);
    expect(matches("投资诈骗不要信", "投资诈骗")).toBe(true);
    expect(matches("请加微信123领取", "微信")).toBe(true);
    // Latin words inside Chinese text are words too.
    expect(matches("买iPhone便宜", "iphone")).toBe(true);
    // Not across words: the text is 质量|很好, so "量很" is half of each.
    expect(matches("这个产品怎么样质量很好", "量很")).toBe(false);
    expect(matches("北京大学生", "北京大学")).toBe(false);
  });
  it("find Japanese words among kanji and kana, keeping the voicing marks", () => {
    expect(matches("これは詐欺です", "詐欺")).toBe(true);
    expect(matches("バカじゃないの", "バカ")).toBe(true);
    expect(matches("ばかやろう", "ばか")).toBe(true);
    expect(matches("お金を稼ぐ方法", "稼ぐ")).toBe(true);
    // バ is not ハ: the voicing mark is part of the letter, not an accent.
    expect(matches("ハカです", "バカ")).toBe(false);
    // Whole words: スパム is not the word スパムメール, as "scam" is not "scammer"; 東京都 is not in 東京|都庁.
    expect(matches("スパムメールです", "スパム")).toBe(false);
    expect(matches("東京都庁", "東京都")).toBe(false);
    // Halfwidth katakana is katakana.
    expect(matches("ｽﾊﾟﾑです", "スパム")).toBe(true);
  });
  it("fold katakana and hiragana together, voiced as voiced, words still found as they are spelled", () => {
    expect(foldText("バカ")).toBe("ばか");
    expect(foldText("ヴァイオリン ヽヾ")).toBe("ゔぁいおりん ゝゞ");
    // The long-vowel mark has no hiragana form.
    expect(foldText("メール")).toBe("めーる");
    expect(matches("バカじゃないの", "ばか")).toBe(true);
    expect(matches("ばかじゃないの", "バカ")).toBe(true);
    expect(matches("ﾊﾞｶじゃないの", "ばか")).toBe(true);
    expect(matches("すぱむめーるです", "スパムメール")).toBe(true);
    // バ is ば, never は or ハ.
    expect(foldText("バ")).not.toBe(foldText("ハ"));
    expect(matches("ハカです", "ばか")).toBe(false);
    expect(matches("はかです", "バカ")).toBe(false);
    // The segmenter reads the text as written: スパムメール stays one word, so スパム (or すぱむ) is not in it.
    expect(matches("スパムメールです", "すぱむ")).toBe(false);
  });
  it("find a Korean word with its particles and endings, but not inside another word", () => {
    expect(matches("스팸을 보내지 마세요", "스팸")).toBe(true);
    expect(matches("이건 스팸이다", "스팸")).toBe(true);
    expect(matches("스팸", "스팸")).toBe(true);
    expect(matches("무료 팔로워를 드려요", "무료 팔로워")).toBe(true);
    // A word in another script takes Korean particles too.
    expect(matches("iPhone을 싸게 팝니다", "iphone")).toBe(true);
    expect(matches("詐欺를 조심하세요", "詐欺")).toBe(true);
    // So a keyword also finds the longer words it begins (documented).
    expect(matches("사기꾼 조심", "사기")).toBe(true);
    // The start of the keyword is still a word's start.
    expect(matches("스팸", "팸")).toBe(false);
    expect(matches("노스팸 정책", "스팸")).toBe(false);
    expect(matches("무료팔로워", "팔로워")).toBe(false);
    // Only Hangul attaches: other letters after the keyword make a longer word, as elsewhere.
    expect(matches("스팸abc", "스팸")).toBe(false);
    expect(matches("scammer님", "scam")).toBe(false);
  });
  it("find Thai words inside a sentence, keeping tone marks and vowels", () => {
    expect(matches("นี่คือการหลอกลวงนะ", "หลอกลวง")).toBe(true);
    expect(matches("โกหกไม่ดี", "ไม่")).toBe(true);
    expect(foldText("ไม่")).toBe("ไม่");
    // Not across words: the text is นี่|คือ|การ|หลอก|ลวง|นะ.
    expect(matches("นี่คือการหลอกลวงนะ", "ารหล")).toBe(false);
    expect(matches("สวัสดีครับ", "สวัส")).toBe(false);
    // Indic vowel signs spell the word: काम is not कम.
    expect(matches("काम", "कम")).toBe(false);
  });
  it("fold case fully: ß as ss, final sigma, dotted capital I", () => {
    expect(foldText("Straße")).toBe("strasse");
    expect(matches("KAUFEN SIE AN DER STRASSE", "Straße")).toBe(true);
    expect(matches("an der Straße", "STRASSE")).toBe(true);
    expect(matches("GROẞE Auswahl", "große")).toBe(true);
    expect(foldText("ΟΔΟΣ")).toBe("οδοσ");
    expect(matches("ΟΔΟΣ ΚΛΕΙΣΤΗ", "οδος")).toBe(true);
    expect(matches("η οδος κλειστη", "ΟΔΟΣ")).toBe(true);
    expect(matches("İSTANBUL", "istanbul")).toBe(true);
    // Dotless ı is its own letter (case folding keeps it).
    expect(matches("sık", "sik")).toBe(false);
  });
  it("fold every case pair that case-insensitive matching knows (Unicode simple case folding)", () => {
    const apart: string[] = [];
    let pairs = 0;
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      if ((cp >= 0xd800 && cp <= 0xdfff) || (ch.toLowerCase() === ch && ch.toUpperCase() === ch)) continue;
      const sameCase = new RegExp(`^[${ch.replace(/[\\\][^-]/g, "\\$&")}]$`, "iu");
      for (const other of [ch.toLowerCase(), ch.toUpperCase()]) {
        if (other === ch || [...other].length !== 1 || !sameCase.test(other)) continue;
        pairs++;
        if (foldText(ch) !== foldText(other)) apart.push(`${ch} ${other}`);
      }
    }
    expect(pairs).toBeGreaterThan(2500);
    expect(apart).toEqual([]);
  });
  it("ignore invisible characters inside words", () => {
    for (const invisible of ["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u00AD", "\u200E", "\u180E"]) {
      expect(matches(`buy sp${invisible}am now`, "spam")).toBe(true);
    }
    expect(matches("诈\u200B骗", "诈骗")).toBe(true);
    expect(foldText("\u200Bspam\uFEFF")).toBe("spam");
  });
  it("fold compatibility forms: fullwidth, ligatures, styled letters", () => {
    expect(matches("ｓｐａｍ", "spam")).toBe(true);
    expect(matches("ＳＣＡＭ！", "scam")).toBe(true);
    expect(matches("𝐬𝐜𝐚𝐦 alert", "scam")).toBe(true);
    expect(matches("ⓢⓒⓐⓜ", "scam")).toBe(true);
    expect(matches("ﬁnance", "finance")).toBe(true);
  });
  it("do not match a keyword inside a longer word, whatever script surrounds it", () => {
    expect(matches("scampi中文", "scam")).toBe(false);
    expect(matches("ｓｃａｍｐｉ", "scam")).toBe(false);
    expect(matches("sc\u200Bampi", "scam")).toBe(false);
    expect(matches("Straßenfest", "strasse")).toBe(false);
    expect(matches("𠮷野家", "野")).toBe(false);
    expect(matches("𠮷野家", "𠮷")).toBe(true);
  });
});
