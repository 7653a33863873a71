import { expect } from "vitest";
import type { Tenant } from "../helpers/fixtures";
import { advance, pausedAd } from "../ads/helpers";
import { callTool, toolResult } from "../tools/helpers";
import { liveAdSet, rollup } from "./helpers";

async function deliveredAd(t: Tenant) {
  const { ad, creativeId } = await pausedAd(t.key, "platform_a");
  await toolResult(t.key, "activate_ads", { adIds: [ad.id] });
  await advance(t.workspaceId, 48);
  await rollup(t.workspaceId);
  return { ad, creativeId };
}

/** One REST scenario per performance tool (spread into tests/tools/tool-calls.ts TOOL_CALLS). */
export const PERFORMANCE_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async get_insights(t) {
    const { ad, creativeId } = await deliveredAd(t);
    const daily = await toolResult(t.key, "get_insights", { level: "ad", ids: [ad.id], breakdown: "day" });
    expect(daily.rows.length).toBeGreaterThanOrEqual(2);
    expect(daily.rows[0]).toMatchObject({ id: ad.id, name: ad.name, date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    const total = await toolResult(t.key, "get_insights", { level: "creative", ids: [creativeId] });
    expect(total.rows).toHaveLength(1);
    expect(total.rows[0].spend).toBeCloseTo(
      daily.rows.reduce((s: number, r: any) => s + r.spend, 0),
      2,
    );
    expect((await callTool(t.key, "get_insights", { level: "campaign", ids: ["camp_missing"] })).status).toBe(404);
    expect((await callTool(t.key, "get_insights", { level: "ad", since: "2026-02-01", until: "2026-01-01" })).body.error.code).toBe("invalid_input");
  },

  async list_creative_performance(t) {
    const { creativeId } = await deliveredAd(t);
    const { creatives, lastRollupAt, rollup } = await toolResult(t.key, "list_creative_performance", { sort: "spend" });
    expect(lastRollupAt).toEqual(expect.any(String));
    expect(rollup).toEqual({
      figuresAsOf: lastRollupAt,
      figuresTimeZone: expect.any(String),
      accounts: [
        {
          adAccountId: expect.any(String),
          platform: "platform_a",
          name: expect.any(String),
          isDefault: true,
          currency: "USD",
          timeZone: expect.any(String),
          today: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
          lastRunAt: lastRollupAt,
          lastSuccessAt: lastRollupAt,
          lastError: null,
        },
      ],
    });
    expect(creatives).toEqual([expect.objectContaining({ creativeId, label: "neutral", reason: expect.any(String), liveAds: 1 })]);
    expect((await toolResult(t.key, "list_creative_performance", { label: "winner" })).creatives).toEqual([]);
  },

  async get_performance_goal(t) {
    expect(await toolResult(t.key, "get_performance_goal", {})).toEqual({ goal: "cpa" });
  },

  async set_performance_goal(t) {
    expect(await toolResult(t.key, "set_performance_goal", { goal: "roas" })).toEqual({ goal: "roas" });
    expect(await toolResult(t.key, "get_performance_goal", {})).toEqual({ goal: "roas" });
    expect((await callTool(t.key, "set_performance_goal", { goal: "cpc" })).status).toBe(400);
  },

  async create_creative_test(t) {
    const { adSet, ads } = await liveAdSet(t.key, { creatives: 2 });
    const { test } = await toolResult(t.key, "create_creative_test", {
      name: "Hero vs alt",
      adSetId: adSet.id,
      metric: "ctr",
      creativeIds: ads.map((a) => a.creativeId),
      minSample: 1000,
      maxDays: 14,
    });
    expect(test).toMatchObject({ status: "running", threshold: 0.95, outcome: null, progress: { minSampleReached: false } });
    const other = await pausedAd(t.key, "platform_a");
    const refused = await callTool(t.key, "create_creative_test", {
      name: "x",
      adSetId: adSet.id,
      metric: "ctr",
      creativeIds: [ads[0]!.creativeId, other.creativeId],
      minSample: 10,
      maxDays: 1,
    });
    expect(refused.body.error.message).toMatch(/has no ad in ad set/);
  },

  async list_creative_tests(t) {
    const { adSet, ads } = await liveAdSet(t.key, { creatives: 2 });
    const { test } = await toolResult(t.key, "create_creative_test", {
      name: "List me",
      adSetId: adSet.id,
      metric: "cpa",
      creativeIds: ads.map((a) => a.creativeId),
      minSample: 100,
      maxDays: 7,
    });
    const { tests, nextCursor } = await toolResult(t.key, "list_creative_tests", { status: "running" });
    expect(tests.map((x: any) => x.id)).toEqual([test.id]);
    expect(nextCursor).toBeNull();
  },

  async get_creative_test(t) {
    const { adSet, ads } = await liveAdSet(t.key, { creatives: 2 });
    const { test } = await toolResult(t.key, "create_creative_test", {
      name: "Get me",
      adSetId: adSet.id,
      metric: "conversion_rate",
      creativeIds: ads.map((a) => a.creativeId),
      minSample: 100,
      maxDays: 7,
    });
    expect((await toolResult(t.key, "get_creative_test", { id: test.id })).test.progress.variants).toHaveLength(2);
    expect((await callTool(t.key, "get_creative_test", { id: "ctest_missing" })).status).toBe(404);
  },

  async stop_creative_test(t) {
    const { adSet, ads } = await liveAdSet(t.key, { creatives: 2 });
    const { test } = await toolResult(t.key, "create_creative_test", {
      name: "Stop me",
      adSetId: adSet.id,
      metric: "ctr",
      creativeIds: ads.map((a) => a.creativeId),
      minSample: 100,
      maxDays: 7,
    });
    expect((await toolResult(t.key, "stop_creative_test", { id: test.id })).test).toMatchObject({ status: "stopped", outcome: null });
  },
};
