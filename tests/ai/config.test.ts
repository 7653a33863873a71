import { describe, expect, it } from "vitest";
import { type ConfigError, parseConfig } from "@/lib/config";
import { configuredRuntime } from "@/lib/ai/provider";

const parse = (env: Record<string, string>) => parseConfig(env as unknown as NodeJS.ProcessEnv);
const problems = (env: Record<string, string>) => {
  try {
    parse(env);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

describe("AI provider configuration", () => {
  it("is off without AI_PROVIDER", () => {
    expect(parse({}).ai).toBeNull();
    expect(configuredRuntime(null)).toBeNull();
  });

  it("names each missing or stray variable", () => {
    expect(problems({ AI_PROVIDER: "openai" })).toEqual([
      expect.stringMatching(/^AI_MODEL: required/),
      expect.stringMatching(/^AI_API_KEY: required when AI_PROVIDER=openai/),
    ]);
    expect(problems({ AI_PROVIDER: "openai-compatible", AI_MODEL: "llama3.1" })).toEqual([
      expect.stringMatching(/^AI_BASE_URL: required when AI_PROVIDER=openai-compatible/),
    ]);
    expect(problems({ AI_MODEL: "gpt-4o" })).toEqual([expect.stringMatching(/^AI_MODEL: set, but AI_PROVIDER is not/)]);
    expect(problems({ AI_PROVIDER: "gemini" })[0]).toMatch(/^AI_PROVIDER:/);
    expect(problems({ AI_PROVIDER: "anthropic", AI_MODEL: "claude-haiku-4-5", AI_API_KEY: "k", AI_CREDITS_PER_MILLION_TOKENS: "cheap" })[0]).toMatch(
      /^AI_CREDITS_PER_MILLION_TOKENS: must be "input,output"/,
    );
  });

  it("builds each provider's model through the AI SDK, priced by the table or the override", () => {
    const openai = configuredRuntime(parse({ AI_PROVIDER: "openai", AI_MODEL: "gpt-4o-mini", AI_API_KEY: "sk" }).ai);
    expect(openai).toMatchObject({ provider: "openai", modelId: "gpt-4o-mini", price: { input: 150, output: 600 } });
    const anthropic = configuredRuntime(parse({ AI_PROVIDER: "anthropic", AI_MODEL: "claude-haiku-4-5", AI_API_KEY: "sk-ant" }).ai);
    expect(anthropic).toMatchObject({ provider: "anthropic", price: { input: 1_000, output: 5_000 } });
    const local = configuredRuntime(
      parse({ AI_PROVIDER: "openai-compatible", AI_MODEL: "llama3.1:8b", AI_BASE_URL: "http://localhost:11434/v1/", AI_CREDITS_PER_MILLION_TOKENS: "10, 20" })
        .ai,
    );
    expect(local).toMatchObject({ provider: "openai-compatible", modelId: "llama3.1:8b", price: { input: 10, output: 20 } });
    expect((local!.model as { modelId: string }).modelId).toBe("llama3.1:8b");
  });
});
