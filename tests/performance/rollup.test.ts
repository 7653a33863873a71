/**
 * The hourly performance rollup through the real stack: ads built and activated over HTTP, the
 * sandbox advanced day by day, the rollup run through the operator CLI (what the hourly job runs),
 * labels and tests read back through the tools, events received by a real webhook endpoint.
 */
import { describe, expect, inject, it } from "vitest";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { waitFor, webhookReceiver } from "../helpers/library";
import { advance } from "../ads/helpers";
import { toolResult } from "../tools/helpers";
import { liveAdSet, rollup, widthsForQualities } from "./helpers";
import { itOnce } from "../helpers/run-once";

const MIN_SPEND = 20,
  MIN_IMPRESSIONS = 1000,
  MIN_CONVERSIONS = 3;

const statusEvents = (events: any[]) => {
  const byId = new Map<string, any>();
  for (const e of events) if (e.type === "creative.status_changed") byId.set(e.id, e);
  return [...byId.values()];
};

/** Every creative's events form one chain from neutral to its current label, with no step that keeps the label. */
function expectOneEventPerChange(events: any[], creatives: any[]) {
  for (const c of creatives) {
    const chain = events.filter((e) => e.data.creative.id === c.creativeId).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    let label = "neutral";
    for (const e of chain) {
      expect(e.data.previousLabel).toBe(label);
      expect(e.data.label).not.toBe(label);
      label = e.data.label;
    }
    expect(label).toBe(c.label);
  }
}

/**
 * Winner and loser labels agree with the documented rule, recomputed from the listed figures; a fatigued label is
 * new at 75% of the earlier CTR or held (fatigued at the previous rollup) up to 85%.
 */
function expectLabelsFollowTheRule(creatives: any[], previous: Map<string, string>) {
  const eligible = creatives.filter((c) => c.spend >= MIN_SPEND && c.impressions >= MIN_IMPRESSIONS && c.conversions >= MIN_CONVERSIONS);
  const cpas = eligible.map((c) => c.spend / c.conversions).sort((a, b) => a - b);
  const median = cpas.length % 2 ? cpas[(cpas.length - 1) / 2]! : (cpas[cpas.length / 2 - 1]! + cpas[cpas.length / 2]!) / 2;
  for (const c of creatives) {
    if (c.label === "winner") {
      expect(eligible.length).toBeGreaterThanOrEqual(3);
      expect(c.spend / c.conversions).toBeLessThanOrEqual(0.8 * median + 0.01);
      expect(c.reason).toMatch(/median/);
    }
    if (c.label === "loser") expect(c.conversions < MIN_CONVERSIONS || c.spend / c.conversions >= 1.25 * median - 0.01).toBe(true);
    if (c.label === "fatigued") {
      expect(c.recentCtr).toBeLessThanOrEqual((previous.get(c.creativeId) === "fatigued" ? 0.85 : 0.75) * c.earlierCtr + 1e-9);
      expect(c.reason).toMatch(/frequency rose/);
    }
  }
}

async function tenantWithHook(): Promise<{ t: Tenant; hook: Awaited<ReturnType<typeof webhookReceiver>> }> {
  const t = await createTenant();
  return { t, hook: await webhookReceiver(t.key) };
}

describe("performance rollup", () => {
  itOnce("labels creatives for the documented reasons as the days pass, with exactly one creative.status_changed per change", async () => {
    const { t, hook } = await tenantWithHook();
    try {
      // One clearly better creative, two near the median and two clearly worse: a spread drawn at random once left
      // only three creatives past the minimums, and the best of them missed 0.8x their median (seen in CI).
      await liveAdSet(t.key, { creatives: 5, widths: await widthsForQualities([1.38, 1.05, 1.0, 0.7, 0.65]) });
      const seen = new Set<string>();
      const history: string[] = [];
      const previous = new Map<string, string>();
      for (let day = 0; day < 12; day++) {
        await advance(t.workspaceId, 24);
        await rollup(t.workspaceId);
        const { creatives } = await toolResult(t.key, "list_creative_performance", {});
        expectLabelsFollowTheRule(creatives, previous);
        for (const c of creatives) {
          seen.add(c.label);
          previous.set(c.creativeId, c.label);
        }
        history.push(creatives.map((c: any) => c.label[0]).join(""));
      }
      // A re-run within the same hour holds every label: no event.
      const before = (await toolResult(t.key, "list_creative_performance", {})).creatives;
      await rollup(t.workspaceId);
      const { creatives } = await toolResult(t.key, "list_creative_performance", { sort: "cpa", order: "asc" });
      expect(creatives.map((c: any) => [c.creativeId, c.label])).toEqual(expect.arrayContaining(before.map((c: any) => [c.creativeId, c.label])));
      expect(creatives).toHaveLength(5);
      console.log(`labels day by day (w/l/f/n per creative): ${history.join(" ")}`);
      // The five creatives' qualities differ: some clearly win or lose on CPA as the days pass.
      expect(seen).toContain("winner");
      expect(seen).toContain("loser");
      const changed = creatives.filter((c: any) => c.label !== "neutral").length;
      const events = await waitFor(
        "label events",
        async () => {
          const e = statusEvents(hook.events);
          return e.length >= changed && e;
        },
        30_000,
      );
      await new Promise((r) => setTimeout(r, 1500)); // nothing more arrives
      expectOneEventPerChange(statusEvents(hook.events), creatives);
      const first = events[0];
      expect(first.data).toMatchObject({
        creative: { fileName: expect.any(String), kind: "image" },
        last30Days: { spend: expect.any(Number) },
        ads: [expect.objectContaining({ platform: "platform_a", status: "active" })],
      });
      // Sorting by CPA ascending puts the lowest CPA first (missing last).
      const cpas = creatives.map((c: any) => c.cpa).filter((v: any) => v !== null);
      expect(cpas).toEqual([...cpas].sort((a, b) => a - b));
    } finally {
      await hook.close();
    }
  });

  itOnce("labels a creative fatigued when its recent CTR falls clearly below its earlier CTR while frequency rises", async () => {
    const { t, hook } = await tenantWithHook();
    try {
      const { ads } = await liveAdSet(t.key, { creatives: 1 });
      const history: string[] = [];
      for (let day = 0; day < 16; day++) {
        await advance(t.workspaceId, 24);
        await rollup(t.workspaceId);
        history.push((await toolResult(t.key, "list_creative_performance", {})).creatives[0].label);
      }
      const [c] = (await toolResult(t.key, "list_creative_performance", {})).creatives;
      console.log(`fatigue: ${history.join(" ")}; recent CTR ${c.recentCtr}, earlier ${c.earlierCtr}`);
      expect(c).toMatchObject({
        creativeId: ads[0]!.creativeId,
        label: "fatigued",
        reason: expect.stringMatching(/^CTR fell from .* while frequency rose from/),
      });
      expect(c.recentCtr).toBeLessThanOrEqual(0.75 * c.earlierCtr);
      // Neutral while the creative was fresh: the label changed once, to fatigued, and held (a day's noise around 75%
      // of the earlier CTR once flipped it back to neutral for a day, before labels held up to 85%).
      expect(history[0]).toBe("neutral");
      expect(history.filter((l, i) => i > 0 && l !== history[i - 1])).toEqual(["fatigued"]);
      const events = await waitFor(
        "the fatigued event",
        async () => {
          const e = statusEvents(hook.events);
          return e.length > 0 && e;
        },
        30_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      expect(statusEvents(hook.events)).toHaveLength(1);
      expect(events[0].data).toMatchObject({ label: "fatigued", previousLabel: "neutral", creative: { id: c.creativeId } });
    } finally {
      await hook.close();
    }
  });

  it("a rollup killed midway and re-run ends in the same state, with no event twice", async () => {
    const { t, hook } = await tenantWithHook();
    try {
      // Qualities picked, not drawn: four random creatives once all stayed neutral for the twelve days (seen in CI).
      const { ads } = await liveAdSet(t.key, { creatives: 4, widths: await widthsForQualities([1.38, 1.0, 0.7, 0.65]) });
      // Twelve days, not six: in six the weakest creative drew 5-10 conversions, and a rare draw of about 13 put its CPA
      // inside the band around the median, so nothing changed label (seen once in a clean-clone run). In twelve it
      // draws 11-18 and would need about 25.
      await advance(t.workspaceId, 24 * 12);
      // Killed after the insights were written but before the cursor moved...
      await expect(rollup(t.workspaceId, ["--stop-after-chunks", "1"])).rejects.toThrow(/simulated crash/);
      // ...and after the label changes were recorded but before their events were stored.
      await expect(rollup(t.workspaceId, ["--stop-before-events", "true"])).rejects.toThrow(/simulated crash/);
      const recorded = (await toolResult(t.key, "list_creative_performance", {})).creatives;
      await rollup(t.workspaceId);
      await rollup(t.workspaceId);
      const { creatives } = await toolResult(t.key, "list_creative_performance", {});
      expect(creatives.map((c: any) => [c.creativeId, c.label])).toEqual(recorded.map((c: any) => [c.creativeId, c.label]));
      // The stored days are the platform's days, each once.
      for (const ad of ads) {
        const platform = await toolResult(t.key, "get_ad_insights", { id: ad.id, since: "2000-01-01", until: "2100-01-01" });
        const stored = await toolResult(t.key, "get_insights", {
          level: "ad",
          ids: [ad.id],
          breakdown: "day",
          since: platform.days[0]?.date ?? "2026-01-01",
          until: platform.days.at(-1)?.date ?? "2026-01-01",
        });
        expect(stored.rows.map((r: any) => [r.date, r.impressions, r.clicks, Math.round(r.spend * 100)])).toEqual(
          platform.days.map((d: any) => [d.date, d.impressions, d.clicks, d.spendMinor]),
        );
      }
      const changed = creatives.filter((c: any) => c.label !== "neutral").length;
      expect(changed).toBeGreaterThan(0); // the killed run had label changes to record
      await waitFor("label events", async () => statusEvents(hook.events).length >= changed, 30_000);
      await new Promise((r) => setTimeout(r, 1500));
      expectOneEventPerChange(statusEvents(hook.events), creatives);
    } finally {
      await hook.close();
    }
  });

  it("decides a creative test by probability to be best, pauses the loser's ad and sends test.completed once", async () => {
    const { t, hook } = await tenantWithHook();
    try {
      const { adSet, ads } = await liveAdSet(t.key, { creatives: 2, widths: [400, 460] });
      const { test } = await toolResult(t.key, "create_creative_test", {
        name: "Two heroes",
        adSetId: adSet.id,
        metric: "ctr",
        creativeIds: ads.map((a) => a.creativeId),
        minSample: 2000,
        maxDays: 30,
        pauseLosers: true,
      });
      let current = test;
      for (let day = 0; day < 14 && current.status === "running"; day++) {
        await advance(t.workspaceId, 24);
        await rollup(t.workspaceId);
        current = (await toolResult(t.key, "get_creative_test", { id: test.id })).test;
      }
      expect(current).toMatchObject({ status: "completed", outcome: "won", progress: { minSampleReached: true } });
      const winner = current.progress.variants.find((v: any) => v.creativeId === current.winnerCreativeId);
      const loser = current.progress.variants.find((v: any) => v.creativeId !== current.winnerCreativeId);
      expect(winner.probabilityToBeBest).toBeGreaterThanOrEqual(0.95);
      expect(winner.value).toBeGreaterThan(loser.value);
      const loserAd = ads.find((a) => a.creativeId === loser.creativeId)!;
      expect(current.progress.pausedAdIds).toEqual([loserAd.id]);
      expect((await toolResult(t.key, "get_ad", { id: loserAd.id })).ad.status).toBe("paused");
      expect((await toolResult(t.key, "get_ad", { id: ads.find((a) => a.creativeId === winner.creativeId)!.id })).ad.status).toBe("active");
      await rollup(t.workspaceId);
      const completed = await waitFor(
        "test.completed",
        async () => {
          const e = hook.events.filter((x: any) => x.type === "test.completed");
          return e.length > 0 && e;
        },
        30_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      expect(new Set(hook.events.filter((x: any) => x.type === "test.completed").map((e: any) => e.id)).size).toBe(1);
      expect(completed[0].data.test).toMatchObject({ testId: test.id, outcome: "won", metric: "ctr", winner: { creativeId: winner.creativeId } });
    } finally {
      await hook.close();
    }
  });

  it("a run killed between deciding a test and pausing its loser pauses it at the next evaluation, with one test.completed", async () => {
    const { t, hook } = await tenantWithHook();
    try {
      const { adSet, ads } = await liveAdSet(t.key, { creatives: 2, widths: [400, 460] });
      const { test } = await toolResult(t.key, "create_creative_test", {
        name: "Killed midway",
        adSetId: adSet.id,
        metric: "ctr",
        creativeIds: ads.map((a) => a.creativeId),
        minSample: 2000,
        maxDays: 30,
        pauseLosers: true,
      });
      // Every run is killed right after its decisions, until one decides the test.
      let current = test;
      for (let day = 0; day < 14 && current.status === "running"; day++) {
        await advance(t.workspaceId, 24);
        await expect(rollup(t.workspaceId, ["--stop-before-test-actions", "true"])).rejects.toThrow(/simulated crash/);
        current = (await toolResult(t.key, "get_creative_test", { id: test.id })).test;
      }
      expect(current).toMatchObject({ status: "completed", outcome: "won", progress: { pausedAdIds: [], pauseError: null } });
      const loserAd = ads.find((a) => a.creativeId !== current.winnerCreativeId)!;
      const winnerAd = ads.find((a) => a.creativeId === current.winnerCreativeId)!;
      expect((await toolResult(t.key, "get_ad", { id: loserAd.id })).ad.status).toBe("active");
      await new Promise((r) => setTimeout(r, 1500));
      expect(hook.events.filter((x: any) => x.type === "test.completed")).toHaveLength(0);

      // The next evaluation (nothing new to decide) finishes what the killed one left.
      const run = await rollup(t.workspaceId);
      expect(run.workspaces[0].decidedTests).toEqual([]);
      current = (await toolResult(t.key, "get_creative_test", { id: test.id })).test;
      expect(current.progress).toMatchObject({ pausedAdIds: [loserAd.id], pauseError: null });
      expect((await toolResult(t.key, "get_ad", { id: loserAd.id })).ad.status).toBe("paused");
      expect((await toolResult(t.key, "get_ad", { id: winnerAd.id })).ad.status).toBe("active");
      await rollup(t.workspaceId);
      await waitFor("test.completed", async () => hook.events.some((x: any) => x.type === "test.completed") || undefined, 30_000);
      await new Promise((r) => setTimeout(r, 1500));
      const completed = hook.events.filter((x: any) => x.type === "test.completed");
      expect(new Set(completed.map((e: any) => e.id)).size).toBe(1);
      expect(completed[0].data.test).toMatchObject({ testId: test.id, outcome: "won", winner: { creativeId: current.winnerCreativeId } });
    } finally {
      await hook.close();
    }
  });

  it.runIf(inject("testDb") === "postgres")(
    "two instances rolling up the same workspace on one PostgreSQL database record and send each change once",
    async () => {
      const { t, hook } = await tenantWithHook();
      try {
        // Qualities picked, not drawn: four random creatives once stayed neutral for all four days (seen in CI).
        await liveAdSet(t.key, { creatives: 4, widths: await widthsForQualities([1.38, 1.0, 0.7, 0.65]) });
        const run = () =>
          promisify(execFile)(process.execPath, ["scripts/admin.mjs", "performance", "rollup", "--workspace", t.workspaceId], {
            env: { ...process.env, DATABASE_URL: inject("databaseUrl"), DATA_DIR: inject("dataDir") },
            cwd: path.resolve(import.meta.dirname, "../.."),
          });
        // Both instances roll up after each day until some label has changed (a day's delivery is seeded by the
        // ads' random ids, so the day it happens varies), then for two more days, so later changes race too.
        let creatives: any[] = [];
        let sawChange = false;
        for (let day = 0, daysAfterChange = -1; day < 12 && daysAfterChange < 2; day++) {
          await advance(t.workspaceId, 24);
          await Promise.all([run(), run()]);
          ({ creatives } = await toolResult(t.key, "list_creative_performance", {}));
          sawChange ||= creatives.some((c: any) => c.label !== "neutral");
          if (sawChange) daysAfterChange++;
        }
        expect(sawChange).toBe(true);
        const changed = creatives.filter((c: any) => c.label !== "neutral").length;
        await waitFor("label events", async () => statusEvents(hook.events).length >= changed, 30_000);
        await new Promise((r) => setTimeout(r, 1500));
        expectOneEventPerChange(statusEvents(hook.events), creatives);
      } finally {
        await hook.close();
      }
    },
    300_000,
  );
});
