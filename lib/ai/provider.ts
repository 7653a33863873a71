import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { AiProviderConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { getConfig } from "@/lib/services";
import { priceOf, type ModelPrice } from "./prices";

/** The model calls go to, with what the ledger records and charges for it. */
export interface AiRuntime {
  model: LanguageModel;
  provider: string;
  modelId: string;
  price: ModelPrice;
}

/** The configured provider's model (the Vercel AI SDK's adapter for it), or null when none is configured. */
export function configuredRuntime(ai: AiProviderConfig | null = getConfig().ai): AiRuntime | null {
  if (!ai) return null;
  return { model: modelOf(ai), provider: ai.provider, modelId: ai.model, price: priceOf(ai) };
}

function modelOf(ai: AiProviderConfig): LanguageModel {
  switch (ai.provider) {
    case "openai":
      return createOpenAI({ apiKey: ai.apiKey, ...(ai.baseUrl ? { baseURL: ai.baseUrl } : {}) })(ai.model);
    case "anthropic":
      return createAnthropic({ apiKey: ai.apiKey, ...(ai.baseUrl ? { baseURL: ai.baseUrl } : {}) })(ai.model);
    case "openai-compatible":
      // includeUsage asks the server for the usage chunk at the end of a stream: the ledger charges from it.
      return createOpenAICompatible({ name: "openai-compatible", baseURL: ai.baseUrl!, apiKey: ai.apiKey, includeUsage: true }).chatModel(ai.model);
  }
}

/** The runtime to use, or the `not_connected` refusal that says how to configure one. */
export function requireRuntime(runtime: AiRuntime | null | undefined = configuredRuntime()): AiRuntime {
  if (runtime) return runtime;
  throw new AppError(
    "not_connected",
    "No AI provider is configured. Set AI_PROVIDER (openai, anthropic or openai-compatible), AI_MODEL and AI_API_KEY " +
      "(or AI_BASE_URL for a self-hosted OpenAI-compatible server such as Ollama or llama.cpp) and restart; see docs/ai.md. " +
      "get_performance_facts and get_ai_usage work without one.",
  );
}
