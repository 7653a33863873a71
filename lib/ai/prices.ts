import type { AiProviderConfig } from "@/lib/config";

/**
 * What a model call costs in credits. One credit is a tenth of a US cent ($0.001), so a price here is the
 * provider's list price in dollars per million tokens times 1,000. A call costs
 * ceil((inputTokens × input + outputTokens × output) / 1,000,000) credits, at least 1.
 */
export interface ModelPrice {
  /** Credits per million input (prompt) tokens. */
  input: number;
  /** Credits per million output (completion) tokens. */
  output: number;
}

/** Known models by name prefix (the longest matching prefix wins): "gpt-4o-mini-2024-07-18" is priced as "gpt-4o-mini". */
export const PRICE_TABLE: Record<string, ModelPrice> = {
  "gpt-4o-mini": { input: 150, output: 600 },
  "gpt-4o": { input: 2_500, output: 10_000 },
  "gpt-4.1-nano": { input: 100, output: 400 },
  "gpt-4.1-mini": { input: 400, output: 1_600 },
  "gpt-4.1": { input: 2_000, output: 8_000 },
  "gpt-5-nano": { input: 50, output: 400 },
  "gpt-5-mini": { input: 250, output: 2_000 },
  "gpt-5": { input: 1_250, output: 10_000 },
  "claude-haiku-4-5": { input: 1_000, output: 5_000 },
  "claude-3-5-haiku": { input: 800, output: 4_000 },
  "claude-sonnet-4": { input: 3_000, output: 15_000 },
  "claude-opus-4": { input: 15_000, output: 75_000 },
};

/** Models not in the table (self-hosted ones, new names) are priced like a mid-sized hosted model unless configured. */
export const DEFAULT_PRICE: ModelPrice = { input: 1_000, output: 4_000 };

/** The price of the configured model: AI_CREDITS_PER_MILLION_TOKENS, else the table, else the default. */
export function priceOf(config: Pick<AiProviderConfig, "model" | "price">): ModelPrice {
  if (config.price) return config.price;
  const prefix = Object.keys(PRICE_TABLE)
    .filter((p) => config.model === p || config.model.startsWith(`${p}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? PRICE_TABLE[prefix]! : DEFAULT_PRICE;
}

/** Credits for that many tokens at that price (whole credits, rounded up; a call that used tokens costs at least 1). */
export function creditsFor(price: ModelPrice, tokens: { input: number; output: number }): number {
  const microCredits = tokens.input * price.input + tokens.output * price.output;
  return microCredits > 0 ? Math.ceil(microCredits / 1_000_000) : 0;
}

/** Tokens a message adds besides its text (role markers of the chat template); generous on purpose. */
const PER_MESSAGE_OVERHEAD = 16;

/**
 * The most input tokens a prompt can be. Byte-level tokenizers (OpenAI's, Anthropic's, Llama's) never make
 * a token of less than one byte, so the UTF-8 length bounds the token count from above.
 */
export function worstCaseInputTokens(texts: string[]): number {
  return texts.reduce((sum, t) => sum + Buffer.byteLength(t, "utf8") + PER_MESSAGE_OVERHEAD, 0);
}
