import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai";
import { api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { freshDatabaseUrl } from "../helpers/fresh-database";
import { allCreatives, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { startServer, type TestServer } from "../helpers/server";
import { callTool } from "../tools/helpers";

/** 0.1 credit per input token, 1 per output token: ceil(prompt / 10 + completion). */
const PRICE = "100000,1000000";
const creditsOf = (u: { prompt_tokens: number; completion_tokens: number }) => Math.ceil(u.prompt_tokens / 10 + u.completion_tokens);

describe("the AI assistant against an OpenAI-compatible server (own server, fake provider)", () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startServer({
      databaseUrl: await freshDatabaseUrl("ai_assistant"),
      env: {
        AI_PROVIDER: "openai-compatible",
        AI_MODEL: "fake-model",
        AI_BASE_URL: fake.baseUrl,
        AI_API_KEY: "sk-test-123",
        AI_CREDITS_PER_MILLION_TOKENS: PRICE,
      },
    });
    // On a loaded machine, a server's first interactive transactions can pass Prisma's 5 s limit while its
    // start-up jobs run (seen here on both databases, on the sign-up transaction alone): wait until it is past that.
    await waitFor("the new server to create a workspace", () => createTenant({ dataDir: server.dataDir }).catch(() => null), 90_000, 1000);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  const tenant = () => createTenant({ dataDir: server.dataDir });
  const call = (key: string, name: string, args: unknown, headers: Record<string, string> = {}) => callTool(key, name, args, headers, server.url);
  const credits = async (t: Tenant) => (await api(t.key, server.url)("/api/v1/me")).body.account.credits as number;

  async function creative(t: Tenant, name = `ai-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.png`): Promise<string> {
    const [uploadId] = await uploadIds(t.key, [{ name, type: "image/png", bytes: await pngImage(16, 9) }], { baseUrl: server.url });
    await finishedUpload(t.key, uploadId!, 60_000, server.url);
    const c = await waitFor(`creative ${name}`, async () => (await allCreatives(t.key, server.url)).find((x) => x.fileName === name), 60_000);
    return c.id;
  }

  it("drafts copy variants within each platform's limits, in the brand voice, saves them labelled and charges the reported usage", async () => {
    const t = await tenant();
    const creativeId = await creative(t);
    expect((await call(t.key, "update_ai_settings", { brandVoice: "Warm, direct, no exclamation marks." })).status).toBe(200);
    const longHeadline = "An unusually long headline that goes well past forty characters";
    fake.respond(() => ({
      content:
        "```json\n" +
        JSON.stringify([
          { platform: "platform_a", headline: "Sleep better tonight", primaryText: "Our mattress adapts to you.", description: "Free returns" },
          { platform: "platform_b", headline: longHeadline, primaryText: "Sleep better, starting tonight.", description: "dropped on platform_b" },
        ]) +
        "\n```",
      usage: { prompt_tokens: 420, completion_tokens: 96 },
    }));
    const before = fake.requests.length;
    const res = await call(t.key, "draft_copy_variants", { creativeId, count: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { variants, cost } = res.body.result;
    expect(cost).toMatchObject({ credits: creditsOf({ prompt_tokens: 420, completion_tokens: 96 }), inputTokens: 420, outputTokens: 96, model: "fake-model" });
    expect(cost.reservedCredits).toBeGreaterThanOrEqual(cost.credits);
    expect(variants).toHaveLength(2);
    const b = variants.find((v: any) => v.platform === "platform_b");
    expect([...b.headline].length).toBeLessThanOrEqual(40);
    expect(longHeadline.startsWith(b.headline)).toBe(true);
    expect(b).toMatchObject({ label: "AI draft · platform_b · 1", description: null, trimmed: true });

    // Saved through the copy domain: the REST resource lists them.
    const copies = (await api(t.key, server.url)(`/api/v1/creatives/${creativeId}/copy`)).body.copies;
    expect(copies.map((c: any) => c.label).sort()).toEqual(["AI draft · platform_a · 1", "AI draft · platform_b · 1"]);

    // What went over the wire: the key, the model, the brand voice and the platform limits.
    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer sk-test-123");
    expect(sent.body.model).toBe("fake-model");
    const prompt = JSON.stringify(sent.body.messages);
    expect(prompt).toContain("Warm, direct, no exclamation marks.");
    expect(prompt).toContain("platform_b: headline up to 40 characters");
    expect(await credits(t)).toBe(10_000 - cost.credits);
  });

  it("explains performance only with numbers from our data: a write-up that invents one is replaced by the facts", async () => {
    const t = await tenant();
    const creativeId = await creative(t);
    const facts = (await call(t.key, "get_performance_facts", { creativeId })).body.result;
    expect(facts.facts[0].text).toMatch(/No delivery in the last 30 days/);

    fake.respond(() => ({
      content: "It has had no delivery in the last 30 days, so there is nothing to compare yet.",
      usage: { prompt_tokens: 200, completion_tokens: 20 },
    }));
    const honest = (await call(t.key, "explain_creative_performance", { creativeId })).body.result;
    expect(honest).toMatchObject({ writtenBy: "model", unsupportedNumbers: [], explanation: expect.stringContaining("30 days") });

    fake.respond(() => ({ content: "Its CTR of 4.5% beat the median by 20%, a clear winner.", usage: { prompt_tokens: 200, completion_tokens: 20 } }));
    const invented = (await call(t.key, "explain_creative_performance", { creativeId })).body.result;
    expect(invented.writtenBy).toBe("facts");
    expect(invented.unsupportedNumbers.sort()).toEqual(["20", "4.5"]);
    expect(invented.explanation).toBe(facts.summary);
    expect(invented.explanation).not.toContain("4.5");
    expect(invented.cost.credits).toBe(creditsOf({ prompt_tokens: 200, completion_tokens: 20 }));
  });

  it("a provider failure charges nothing and releases the reservation; a rate limit is upstream_busy", async () => {
    const t = await tenant();
    const start = await credits(t);
    fake.respond(() => ({ error: { status: 500, message: "model crashed" } }));
    const failed = await call(t.key, "suggest_names", { subject: "campaign", context: "spring sale" });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: "upstream_error", message: expect.stringMatching(/500.*no credits were charged/s) });
    fake.respond(() => ({ error: { status: 429, message: "slow down", type: "rate_limit_error" } }));
    const busy = await call(t.key, "suggest_names", { subject: "campaign" });
    expect(busy.status).toBe(503);
    expect(busy.body.error.code).toBe("upstream_busy");
    expect(await credits(t)).toBe(start);
    const { usage } = (await call(t.key, "get_ai_usage", {})).body.result;
    expect(usage.recent.map((r: any) => [r.status, r.chargedCredits])).toEqual([
      ["released", 0],
      ["released", 0],
    ]);
  });

  it("a call from the Assistant page that goes away while the model answers is still charged for what the model used", async () => {
    const t = await tenant();
    const start = await credits(t);
    const used = { prompt_tokens: 100, completion_tokens: 12 };
    fake.respond(() => ({ content: '["spring_sale_a", "spring_sale_b"]', usage: used, delayMs: 1500 }));
    const abort = new AbortController();
    const res = await fetch(`${server.url}/dashboard/assistant/stream`, {
      method: "POST",
      headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ mode: "tool", name: "suggest_names", arguments: { subject: "campaign", count: 2 } }),
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    // The reservation's progress line comes before the model is asked; then the page goes away.
    expect(new TextDecoder().decode((await res.body!.getReader().read()).value)).toContain("Reserved up to");
    abort.abort();
    const recent = await waitFor("the call to settle", async () => {
      const { usage } = (await call(t.key, "get_ai_usage", {})).body.result;
      return usage.recent.length && usage.recent[0].status !== "reserved" ? usage.recent : undefined;
    });
    expect(recent.map((r: any) => [r.feature, r.status, r.chargedCredits])).toEqual([["suggest_names", "captured", creditsOf(used)]]);
    expect(await credits(t)).toBe(start - creditsOf(used));
  });

  it("a call repeated with its idempotency key is answered again without asking the model or charging twice", async () => {
    const t = await tenant();
    fake.respond(() => ({ content: '["spring_sale_a", "spring_sale_b"]', usage: { prompt_tokens: 100, completion_tokens: 12 } }));
    const before = fake.requests.length;
    const first = await call(t.key, "suggest_names", { subject: "campaign", count: 2 }, { "Idempotency-Key": "names-1" });
    const again = await call(t.key, "suggest_names", { subject: "campaign", count: 2 }, { "Idempotency-Key": "names-1" });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(fake.requests.length).toBe(before + 1);
    expect(await credits(t)).toBe(10_000 - creditsOf({ prompt_tokens: 100, completion_tokens: 12 }));
  });

  it("50 concurrent calls: the balance never goes below zero, every charge is the usage the provider reported, refusals say out of credits", async () => {
    const t = await tenant();
    const usage = { prompt_tokens: 300, completion_tokens: 200 };
    fake.respond(() => ({ content: '["a_name"]', usage, delayMs: 150 }));
    const reportedBefore = fake.reportedUsage.length;
    const results = await Promise.all(Array.from({ length: 50 }, () => call(t.key, "suggest_names", { subject: "ad", count: 10, context: "x".repeat(480) })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    for (const r of refused)
      expect(r.body.error, JSON.stringify(r.body)).toMatchObject({ code: "limit_exceeded", message: expect.stringMatching(/^Out of AI credits/) });
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const charged = ok.reduce((s, r) => s + r.body.result.cost.credits, 0);
    const reported = fake.reportedUsage.slice(reportedBefore);
    expect(reported).toHaveLength(ok.length);
    expect(charged).toBe(reported.reduce((s, u) => s + creditsOf(u), 0));
    const balance = await credits(t);
    expect(balance).toBe(10_000 - charged);
    expect(balance).toBeGreaterThanOrEqual(0);
    const report = (await call(t.key, "get_ai_usage", {})).body.result.usage;
    expect(report).toMatchObject({
      balance,
      totalCredits: charged,
      calls: ok.length,
      byFeature: [{ feature: "suggest_names", credits: charged, calls: ok.length }],
    });
    expect(report.byMember).toEqual([expect.objectContaining({ userId: t.ownerUserId, credits: charged })]);
  });

  it("needs the ai scope, and a non-owner sees no balance", async () => {
    const t = await tenant();
    const scoped = await createMemberKey(t, { role: "editor", scopes: ["edit"], dataDir: server.dataDir });
    const refused = await call(scoped.key, "suggest_names", { subject: "ad" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    const editor = await createMemberKey(t, { role: "editor", scopes: ["ai"], dataDir: server.dataDir });
    expect((await call(editor.key, "get_ai_usage", {})).body.result.usage.balance).toBeNull();

    // The Assistant page's chat spends the same credits: a key without the ai scope, or a viewer, is refused
    // before the model is asked.
    const viewer = await createMemberKey(t, { role: "viewer", dataDir: server.dataDir });
    const asked = fake.requests.length;
    const before = await credits(t);
    for (const key of [scoped.key, viewer.key]) {
      const chat = await api(key, server.url)("/dashboard/assistant/stream", {
        method: "POST",
        json: { mode: "chat", messages: [{ role: "user", content: "Pause every ad" }] },
      });
      expect([chat.status, chat.body.error.code]).toEqual([403, "forbidden"]);
    }
    expect(fake.requests.length).toBe(asked);
    expect(await credits(t)).toBe(before);
  });
});
