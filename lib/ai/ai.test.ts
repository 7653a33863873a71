import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { useFreshDatabase } from "@/tests/helpers/in-process-db";
import { fitText } from "./draft-copy";
import { jsonIn } from "./json-answer";
import { assistantChat } from "./chat";
import { meteredCall } from "./metered";
import { numbersIn, type PerformanceFacts, unsupportedNumbers } from "./performance-facts";
import { creditsFor, DEFAULT_PRICE, priceOf, worstCaseInputTokens } from "./prices";
import { withProgress, type ProgressEvent } from "./progress";
import type { AiRuntime } from "./provider";

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const stop = { unified: "stop" as const, raw: "stop" };

describe("prices", () => {
  it("picks the longest matching prefix, then the configured override, then the default", () => {
    expect(priceOf({ model: "gpt-4o-mini-2024-07-18" })).toEqual({ input: 150, output: 600 });
    expect(priceOf({ model: "gpt-4o" })).toEqual({ input: 2_500, output: 10_000 });
    expect(priceOf({ model: "llama3.1:8b" })).toEqual(DEFAULT_PRICE);
    expect(priceOf({ model: "gpt-4o", price: { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
  });
  it("rounds a call up to whole credits, and bounds input tokens by UTF-8 bytes", () => {
    expect(creditsFor({ input: 150, output: 600 }, { input: 1_000, output: 500 })).toBe(1);
    expect(creditsFor({ input: 2_500, output: 10_000 }, { input: 10_000, output: 2_000 })).toBe(45);
    expect(creditsFor({ input: 2_500, output: 10_000 }, { input: 0, output: 0 })).toBe(0);
    expect(worstCaseInputTokens(["héllo"])).toBe(6 + 16);
  });
});

describe("answers read from the model", () => {
  it("finds JSON in fences or prose", () => {
    expect(jsonIn('Sure!\n```json\n[{"a":1}]\n```')).toEqual([{ a: 1 }]);
    expect(jsonIn('Here you go: ["x", "y"] done')).toEqual(["x", "y"]);
    expect(jsonIn("no json here")).toBeNull();
  });
  it("fits text to a platform limit at a word boundary, counting code points", () => {
    expect(fitText("Sleep better tonight, every night", 20)).toEqual({ text: "Sleep better", trimmed: true });
    expect(fitText("😀😀😀", 3)).toEqual({ text: "😀😀😀", trimmed: false });
    expect(fitText("anything", 0)).toEqual({ text: null, trimmed: true });
  });
  it("flags every number of an answer that is not in the facts", () => {
    const facts = {
      fileName: "hero-2024.png",
      summary: "Spend 1,234.50, CTR 2.30%. Against the median of 4 creatives (CPA 12.00), its CPA 9.60 is 20.00% better.",
    } as PerformanceFacts;
    expect(numbersIn("1,234.50 and 2.30%")).toEqual(["1234.5", "2.3"]);
    expect(unsupportedNumbers("It spent 1234.50 at a CTR of 2.3% in 2024, 20% better than 4 peers.", facts)).toEqual([]);
    expect(unsupportedNumbers("CPA 9.6 beat 12 by 25%, over 7 days", facts)).toEqual(["25", "7"]);
  });
});

describe("metered model calls (mock model, fresh database)", () => {
  let principal: Principal;
  let workspaceId: string;
  beforeAll(async () => {
    await useFreshDatabase("ai_unit");
    const { createWorkspace } = await import("@/lib/workspaces/workspaces");
    const created = await createWorkspace({ name: "AI", plan: "pro" });
    workspaceId = created.workspaceId;
    principal = { workspaceId, userId: created.ownerUserId, role: "owner" } as Principal;
  });
  afterAll(async () => {
    const { disposeServices } = await import("@/lib/services");
    await disposeServices();
  });

  const balance = async () => await (await import("@/lib/ai/credits")).creditBalance(workspaceId);
  const runtime = (model: MockLanguageModelV3): AiRuntime => ({
    model,
    provider: "mock",
    modelId: "mock-model",
    price: { input: 1_000_000, output: 2_000_000 },
  });

  it("charges the usage the model reports and returns the rest of the reservation", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [{ type: "text", text: "hello" }], finishReason: stop, usage: usage(30, 7), warnings: [] }),
    });
    const before = await balance();
    const answer = await meteredCall(
      principal,
      { feature: "unit", system: "s", messages: [{ role: "user", content: "hi" }], maxOutputTokens: 50 },
      runtime(model),
    );
    expect(answer.text).toBe("hello");
    expect(answer.cost).toMatchObject({ credits: 30 + 14, inputTokens: 30, outputTokens: 7, model: "mock-model" });
    expect(answer.cost.reservedCredits).toBe(worstCaseInputTokens(["s", "hi"]) + 100);
    expect(await balance()).toBe(before - 44);
  });

  it("a model that throws releases the whole reservation", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("boom");
      },
    });
    const before = await balance();
    await expect(
      meteredCall(principal, { feature: "unit", system: "s", messages: [{ role: "user", content: "hi" }], maxOutputTokens: 50 }, runtime(model)),
    ).rejects.toMatchObject({ code: "upstream_error" });
    expect(await balance()).toBe(before);
  });

  it("a confirmed tool that ran is reported when the model then fails, and the failed call charges nothing", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("boom");
      },
    });
    const ran: string[] = [];
    const runner = {
      tools: [{ name: "delete_ad", description: "Deletes an ad", inputSchema: { type: "object" }, destructive: true }],
      run: async (name: string) => {
        ran.push(name);
        return { ok: true as const, result: { deleted: true } };
      },
    };
    const before = await balance();
    const answer = await assistantChat(
      principal,
      { messages: [{ role: "user", content: "Delete ad 1" }], confirmed: { id: "call_1", name: "delete_ad", arguments: { adId: "ad_1" } } },
      runner,
      runtime(model),
    );
    expect(ran).toEqual(["delete_ad"]);
    expect(answer.toolRuns).toEqual([{ name: "delete_ad", arguments: { adId: "ad_1" }, ok: true, error: null }]);
    expect(answer.reply).toMatch(/^Ran delete_ad, but the assistant could not answer after it: /);
    expect(await balance()).toBe(before);
    // Nothing ran: the error stays an error.
    await expect(assistantChat(principal, { messages: [{ role: "user", content: "hi" }] }, runner, runtime(model))).rejects.toMatchObject({
      code: "upstream_error",
    });
  });

  it("streams text to a progress listener and still charges the final usage", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Hel" },
            { type: "text-delta", id: "t", delta: "lo" },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: stop, usage: usage(10, 2) },
          ],
        }),
      }),
    });
    const events: ProgressEvent[] = [];
    const answer = await withProgress(
      (e) => events.push(e),
      () => meteredCall(principal, { feature: "unit", system: "s", messages: [{ role: "user", content: "hi" }], maxOutputTokens: 50 }, runtime(model)),
    );
    expect(answer.text).toBe("Hello");
    expect(events.filter((e) => e.type === "text").map((e) => (e as { delta: string }).delta)).toEqual(["Hel", "lo"]);
    expect(events.at(-1)).toEqual({ type: "cost", credits: 14, reservedCredits: answer.cost.reservedCredits });
  });

  it("keeps the ledger's invariant: balance = grants − charges of captured calls − reservations held", async () => {
    const { getDb } = await import("@/lib/db/client");
    const db = getDb();
    const grants = await db.aiCreditGrant.aggregate({ where: { workspaceId }, _sum: { credits: true } });
    const charged = await db.aiUsage.aggregate({ where: { workspaceId, status: "captured" }, _sum: { chargedCredits: true } });
    const held = await db.aiUsage.aggregate({ where: { workspaceId, status: "reserved" }, _sum: { reservedCredits: true } });
    expect(grants._sum.credits).toBe(10_000);
    expect(await balance()).toBe(10_000 - (charged._sum.chargedCredits ?? 0) - (held._sum.reservedCredits ?? 0));
    // The calls of the model that throws: one above, two in the chat case.
    expect(await db.aiUsage.count({ where: { workspaceId, status: "released" } })).toBe(3);
  });

  it("refuses with limit_exceeded when the worst case does not fit, and says not_connected without a provider", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [{ type: "text", text: "x" }], finishReason: stop, usage: usage(1, 1), warnings: [] }),
    });
    await expect(
      meteredCall(principal, { feature: "unit", system: "s", messages: [{ role: "user", content: "hi" }], maxOutputTokens: 100_000 }, runtime(model)),
    ).rejects.toMatchObject({
      code: "limit_exceeded",
      message: expect.stringMatching(/^Out of AI credits: this call may cost up to 200\d+ credits/),
    });
    expect(model.doGenerateCalls).toHaveLength(0);
    await expect(meteredCall(principal, { feature: "unit", system: "s", messages: [], maxOutputTokens: 1 }, null)).rejects.toMatchObject({
      code: "not_connected",
      message: expect.stringContaining("AI_PROVIDER"),
    });
  });
});
