import { expect } from "vitest";
import { api, type Tenant } from "../helpers/fixtures";
import { callTool, readyCreative, toolResult } from "../tools/helpers";

/**
 * The AI tools on the shared test server, which has no AI provider configured: the generating tools answer
 * `not_connected` with how to configure one and charge nothing; the rest work. With a provider (a local fake
 * of the OpenAI wire format): tests/ai/assistant.test.ts.
 */
async function notConnected(t: Tenant, name: string, args: Record<string, unknown>) {
  const before = (await api(t.key)("/api/v1/me")).body.account.credits;
  const res = await callTool(t.key, name, args);
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: "not_connected", message: expect.stringContaining("AI_PROVIDER") });
  expect((await api(t.key)("/api/v1/me")).body.account.credits).toBe(before);
}

export const AI_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async get_ai_settings(t) {
    expect(await toolResult(t.key, "get_ai_settings", {})).toEqual({ settings: { brandVoice: null, namingConvention: null } });
  },
  async update_ai_settings(t) {
    await toolResult(t.key, "update_ai_settings", { brandVoice: "  Plain and kind  ", namingConvention: "{date}_{product}" });
    await toolResult(t.key, "update_ai_settings", { namingConvention: null });
    expect((await toolResult(t.key, "get_ai_settings", {})).settings).toEqual({ brandVoice: "Plain and kind", namingConvention: null });
  },
  async get_ai_usage(t) {
    const { usage } = await toolResult(t.key, "get_ai_usage", { days: 7 });
    expect(usage).toMatchObject({ balance: 10_000, days: 7, totalCredits: 0, calls: 0, byMember: [], byFeature: [], recent: [] });
  },
  async get_performance_facts(t) {
    const { creativeId, fileName } = await readyCreative(t.key);
    const result = await toolResult(t.key, "get_performance_facts", { creativeId });
    expect(result).toMatchObject({ creativeId, fileName, label: null, goal: "cpa" });
    expect(result.summary).toMatch(/No delivery in the last 30 days/);
    expect((await callTool(t.key, "get_performance_facts", { creativeId: "cr_missing" })).body.error.code).toBe("not_found");
  },
  async draft_copy_variants(t) {
    const { creativeId } = await readyCreative(t.key);
    await notConnected(t, "draft_copy_variants", { creativeId });
  },
  async explain_creative_performance(t) {
    const { creativeId } = await readyCreative(t.key);
    await notConnected(t, "explain_creative_performance", { creativeId });
  },
  async suggest_names(t) {
    await notConnected(t, "suggest_names", { subject: "campaign" });
  },
  async summarize_review_threads(t) {
    const { creativeId } = await readyCreative(t.key);
    // No comments: nothing to summarize and nothing spent, with or without a provider.
    expect(await toolResult(t.key, "summarize_review_threads", { creativeId })).toEqual({
      versionNumber: 1,
      openThreads: 0,
      resolvedThreads: 0,
      summary: "There are no review comments on this version.",
      cost: null,
    });
    await toolResult(t.key, "add_comment", { creativeId, body: "Logo too small" });
    await notConnected(t, "summarize_review_threads", { creativeId });
  },
};
