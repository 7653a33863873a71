import type { Principal } from "@/lib/auth/principal";
import { type AiCost, meteredCall } from "./metered";
import { performanceFacts, type PerformanceFacts, unsupportedNumbers } from "./performance-facts";
import type { AiRuntime } from "./provider";

export interface Explanation {
  creativeId: string;
  label: string | null;
  /** The explanation: the model's write-up, or the facts themselves when the write-up quoted a number not in them. */
  explanation: string;
  writtenBy: "model" | "facts";
  /** Numbers the model wrote that are not in the data (its write-up was then discarded). */
  unsupportedNumbers: string[];
  facts: PerformanceFacts["facts"];
  cost: AiCost;
}

/**
 * "Why did this creative win / lose / fatigue": the facts are computed from our data (performanceFacts) and
 * the model only puts them into words. A write-up carrying any number that is not in the facts is not
 * shown: the facts are, and the numbers it made up are reported.
 */
export async function explainPerformance(
  principal: Principal,
  input: { creativeId: string; question?: string },
  runtime?: AiRuntime | null,
): Promise<Explanation> {
  const facts = await performanceFacts(principal, input);
  const system = [
    "You explain an ad creative's performance to a marketer in at most 120 words of plain prose.",
    "Use ONLY the facts given. Quote numbers exactly as they are written in the facts; never compute, round or add new numbers, and do not number lists.",
    "If the facts cannot answer the question, say so.",
  ].join(" ");
  const content = `Creative: ${facts.fileName}\nFacts:\n${facts.facts.map((f) => `- ${f.text}`).join("\n")}\n\nQuestion: ${input.question ?? "Why does this creative perform the way it does?"}`;
  const answer = await meteredCall(
    principal,
    { feature: "explain_creative_performance", system, messages: [{ role: "user", content }], maxOutputTokens: 400 },
    runtime,
  );
  const made = unsupportedNumbers(answer.text, facts);
  const usable = made.length === 0 && answer.text.trim().length > 0;
  return {
    creativeId: facts.creativeId,
    label: facts.label,
    explanation: usable ? answer.text.trim() : facts.summary,
    writtenBy: usable ? "model" : "facts",
    unsupportedNumbers: made,
    facts: facts.facts,
    cost: answer.cost,
  };
}
