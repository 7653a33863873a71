import { beforeAll, describe, expect, it, vi } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

// The sandbox ads platform in-process, against a real database: state, delivery, faults, limits.
await useFreshDatabase("sandbox_platform");
const { createWorkspace } = await import("@/lib/workspaces/workspaces");
const { getAdAccount, adapterFor, PlatformError } = await import("@/lib/platforms");
const { advanceSandbox, burstLimit, sandboxCampaigns, sandboxDeliveryDays } = await import("@/lib/platforms/sandbox/operator");
const { getDb } = await import("@/lib/db/client");
// Creating hundreds of ads in a loop meets the account's burst limit, as a real client would: wait it out.
const { withBusyRetry } = await import("@/lib/ads/platform-access");

type Account = NonNullable<Awaited<ReturnType<typeof getAdAccount>>>;

async function workspaceAccount(platform: "platform_a" | "platform_b" = "platform_a"): Promise<{ workspaceId: string; account: Account }> {
  const { workspaceId } = await createWorkspace({ name: `Sandbox ${Math.random()}`, plan: "pro" });
  return { workspaceId, account: (await getAdAccount(workspaceId, platform))! };
}

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as InstanceType<typeof PlatformError>;
}

const creative = {
  mediaId: "a".repeat(32),
  kind: "image" as const,
  headline: "Hi",
  primaryText: "Buy",
  description: null,
  callToAction: "shop_now" as const,
  landingUrl: "https://example.com",
  leadFormId: null,
};

async function liveAd(account: Account, options: { budget?: number; objective?: "sales" | "leads"; ads?: number; leadFormId?: string | null } = {}) {
  const api = adapterFor(account);
  const campaign = await api.createCampaign(account, {
    clientRef: `c-${Math.random()}`,
    name: "Campaign",
    objective: options.objective ?? "sales",
    status: "paused",
  });
  const adSet = await api.createAdSet(account, {
    clientRef: `s-${Math.random()}`,
    campaignExternalId: campaign.externalId,
    name: "Set",
    status: "paused",
    budget: { type: "daily", amountMinor: options.budget ?? 5000 },
    startTime: null,
    endTime: null,
    targeting:
      account.platform === "platform_a"
        ? { platform: "platform_a", countries: ["US"], ageMin: 18, ageMax: 65 }
        : { platform: "platform_b", locationIds: ["6252001"], ageGroups: [] },
    audienceId: null,
  });
  const ads = [];
  for (let i = 0; i < (options.ads ?? 1); i++) {
    const ad = await withBusyRetry(
      () =>
        api.createAd(account, {
          clientRef: `a-${Math.random()}`,
          adSetExternalId: adSet.externalId,
          name: `Ad ${i}`,
          status: "paused",
          creative: { ...creative, mediaId: `${i}${"b".repeat(31)}`, leadFormId: options.leadFormId ?? null, primaryText: "Buy now" },
        }),
      20,
    );
    await withBusyRetry(() => api.updateAd(account, ad.externalId, { status: "active", clientRef: `act-${ad.externalId}` }), 20);
    ads.push(ad);
  }
  await withBusyRetry(() => api.updateAdSet(account, adSet.externalId, { status: "active", clientRef: "x" }), 20);
  await withBusyRetry(() => api.updateCampaign(account, campaign.externalId, { status: "active", clientRef: "y" }), 20);
  return { api, campaign, adSet, ads };
}

describe("the sandbox ads platform", () => {
  beforeAll(() => undefined);

  it("answers a repeated create with the same clientRef with the first object", async () => {
    const { account } = await workspaceAccount();
    const api = adapterFor(account);
    const write = { clientRef: "ref-1", name: "Once", objective: "traffic" as const, status: "paused" as const };
    const first = await api.createCampaign(account, write);
    const again = await api.createCampaign(account, { ...write, name: "Twice" });
    expect(again).toEqual(first);
    const held = await sandboxCampaigns(account);
    expect(held).toHaveLength(1);
    expect(first).toMatchObject({ status: "paused", objective: "traffic", name: "Once" });
    expect(held[0]).toMatchObject({ externalId: first.externalId, objective: "OUTCOME_TRAFFIC", status: "PAUSED" });
  });

  it("delivers only active ads, never past the daily budget, deterministically, with fatigue over the days", async () => {
    const { workspaceId, account } = await workspaceAccount();
    const { api, ads } = await liveAd(account, { budget: 5000, ads: 2 });
    const summary = await advanceSandbox(workspaceId, 24 * 10);
    expect(summary).toMatchObject({ workspaceId, hours: 240 });
    expect(summary.adsDelivered).toBe(2);
    expect(summary.spendMinor).toBeGreaterThan(0);
    const info = await api.getAccount(account);
    const days = await api.getDailyInsights(account, { since: "2000-01-01", until: info.today });
    const perDay = new Map<string, number>();
    for (const d of days) perDay.set(d.date, (perDay.get(d.date) ?? 0) + d.spendMinor);
    for (const spend of perDay.values()) expect(spend).toBeLessThanOrEqual(5000);
    // Full middle days spend most of the budget.
    expect(Math.max(...perDay.values())).toBeGreaterThan(4000);
    // Fatigue: frequency grows and CTR falls from the first full day to the last.
    const ad0 = days.filter((d) => d.adExternalId === ads[0]!.externalId);
    const early = ad0[1]!;
    const late = ad0[ad0.length - 2]!;
    expect(late.frequency).toBeGreaterThan(early.frequency);
    expect(late.clicks / late.impressions).toBeLessThan(early.clicks / early.impressions);
    // Comments appeared on the active ads.
    const comments = await api.listComments(account, { limit: 500 });
    expect(comments.length).toBeGreaterThan(0);
    // Which active ad draws comments depends on the ads' random ids (the generator is seeded by them): each
    // comment is on one of the active ads, not necessarily on both.
    const active = new Set(ads.map((a) => a.externalId));
    expect(comments.every((c) => active.has(c.adExternalId))).toBe(true);
  }, 120_000);

  it("collects lead-form submissions on lead ads", async () => {
    const { workspaceId, account } = await workspaceAccount();
    const api = adapterFor(account);
    const [form] = await api.listLeadForms(account);
    await liveAd(account, { objective: "leads", leadFormId: form!.externalId, budget: 20_000 });
    const summary = await advanceSandbox(workspaceId, 48);
    expect(summary.leads).toBeGreaterThan(0);
    const leads = await api.listLeadSubmissions(account, { formExternalId: form!.externalId, limit: 1000 });
    expect(leads.length).toBe(summary.leads);
    expect(leads[0]!.fields.map((f) => f.name)).toEqual(form!.questions);
  }, 60_000);

  it("refuses by name: reject, busy twice then accepted, terms terminally", async () => {
    const { account } = await workspaceAccount("platform_b");
    const api = adapterFor(account);
    const w = (name: string) => ({ clientRef: `ref-${name}`, name, objective: "sales" as const, status: "paused" as const });
    expect(await refusal(api.createCampaign(account, w("sandbox-reject-1")))).toMatchObject({ code: "upstream_error", retryable: true });
    expect(await refusal(api.createCampaign(account, w("sandbox-busy-1")))).toMatchObject({ code: "upstream_busy", retryable: true });
    expect(await refusal(api.createCampaign(account, w("sandbox-busy-1")))).toMatchObject({ code: "upstream_busy" });
    expect((await api.createCampaign(account, w("sandbox-busy-1"))).name).toBe("sandbox-busy-1");
    const terms = await refusal(api.createCampaign(account, w("Sandbox-Terms-1")));
    expect(terms).toMatchObject({ code: "invalid_input", retryable: false });
    expect(terms.message).toMatch(/terms of service/);
  });

  it("rate-limits bursts per ad account", async () => {
    const { account } = await workspaceAccount();
    const api = adapterFor(account);
    const results = await Promise.allSettled(Array.from({ length: burstLimit().capacity + 30 }, () => api.listAudiences(account)));
    const busy = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]).toMatchObject({ code: "upstream_busy" });
  });

  it("computes a month of hourly delivery for many ads in bulk", async () => {
    const { workspaceId, account } = await workspaceAccount();
    await liveAd(account, { ads: 200, budget: 100_000 });
    const summary = await advanceSandbox(workspaceId, 24 * 30);
    expect(summary.adsDelivered).toBe(200);
    expect(await sandboxDeliveryDays(account)).toBeGreaterThanOrEqual(200 * 30);
  }, 180_000);
});

describe("planner statistics", () => {
  it("refreshes the ads tables and, through lib/platforms, the sandbox's own, without naming them in lib/ads", async () => {
    const { notePlannerGrowth } = await import("@/lib/ads/planner-stats");
    const warn = vi.spyOn(console, "warn");
    const analyzed: string[] = [];
    const db = getDb();
    const raw = db.$executeRawUnsafe.bind(db);
    const spy = vi.spyOn(db, "$executeRawUnsafe").mockImplementation(((sql: string) => {
      analyzed.push(sql);
      return raw(sql);
    }) as typeof db.$executeRawUnsafe);
    try {
      await notePlannerGrowth(250);
    } finally {
      spy.mockRestore();
    }
    // Only the embedded database needs it (PostgreSQL's autovacuum keeps its statistics).
    const { getPglite } = await import("@/lib/db/client");
    // The sandbox's statement is its own business (its tables are named only inside lib/platforms/sandbox).
    expect(analyzed).toEqual(getPglite() ? ["ANALYZE ads, ad_sets, ad_campaigns", expect.stringMatching(/^ANALYZE \S+, \S+$/)] : []);
    expect(warn).not.toHaveBeenCalledWith(expect.stringContaining("planner statistics"));
    warn.mockRestore();
  });
});
