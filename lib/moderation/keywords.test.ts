import { describe, expect, it } from "vitest";
import { firstMatchingRule, foldText, matchesFolded } from "./keywords";

const matches = (text: string, keyword: string) => matchesFolded(foldText(text), foldText(keyword));

describe("moderation keywords", () => {
  it("fold case, accents and compatibility forms", () => {
    expect(foldText("ARNAQUÉ  Ça\tva")).toBe("arnaque ca va");
    expect(foldText("ﬁne")).toBe("fine");
    expect(matches("C'est une ARNAQUE !", "arnaqué")).toBe(true);
    expect(matches("Crème brûlée", "CREME BRULEE")).toBe(true);
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
  });
});
