import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { clearOfTheHour, until } from "../helpers/wait";
import { callTool, toolResult } from "../tools/helpers";
import { advance } from "../ads/helpers";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";
import { activeAds, pauseRule, runAutomation, tenantWithEndpoint } from "./helpers";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** Every impression the platform reports for the ad so far. */
async function totalImpressions(key: string, adId: string): Promise<number> {
  const { days } = await toolResult(key, "get_ad_insights", { id: adId });
  return days.reduce((s: number, d: any) => s + d.impressions, 0);
}

describe("automation rules", () => {
  it("pauses the matching ads and only those, as previewed, with exactly one rule.triggered per run; the same hour runs once; the cooldown holds", async () => {
    const { tenant: t, received } = await tenantWithEndpoint(receiver, ["rule.triggered"]);
    const { ads } = await activeAds(t, ["Keep one", "Cut two", "Cut three"]);
    const [keep, cut2, cut3] = ads;
    await advance(t.workspaceId, 24);

    const { rule } = await toolResult(t.key, "create_rule", pauseRule("cut"));
    expect(rule).toMatchObject({ enabled: true, cooldownMinutes: 180, match: "all", scope: { level: "ads", nameContains: "cut" }, lastRun: null });

    const preview = await toolResult(t.key, "preview_rule", { id: rule.id });
    expect(preview.inScope).toBe(2);
    expect(preview.actions).toBe(2);
    expect(preview.matches.map((m: any) => m.objectId).sort()).toEqual([cut2.id, cut3.id].sort());
    for (const m of preview.matches) {
      expect(m).toMatchObject({ act: true, change: "pause: active -> paused", skipped: null, campaignName: expect.stringMatching(/^Campaign /) });
      expect(m.metrics.impressions).toBeGreaterThan(0);
    }
    // Nothing changed by the preview.
    expect((await toolResult(t.key, "get_ad", { id: cut2.id })).ad.status).toBe("active");

    // Two evaluations of the same hour at once: one run, one event (and a third, in the same hour, finds it).
    await clearOfTheHour(60_000);
    const [first, second] = await Promise.all([runAutomation(t.workspaceId), runAutomation(t.workspaceId)]);
    const runs = [first.rules[0], second.rules[0]];
    expect(runs.map((r: any) => r.run.id)[0]).toBe(runs[1].run.id);
    const run = runs[0].run;
    expect(run).toMatchObject({ status: "completed", matchCount: 2, actionsTaken: 2, errors: [] });
    expect(run.matches.map((m: any) => m.objectId).sort()).toEqual(preview.matches.map((m: any) => m.objectId).sort());
    expect((await runAutomation(t.workspaceId)).rules[0]).toMatchObject({ alreadyRan: true, run: { id: run.id } });

    expect((await toolResult(t.key, "get_ad", { id: cut2.id })).ad.status).toBe("paused");
    expect((await toolResult(t.key, "get_ad", { id: cut3.id })).ad.status).toBe("paused");
    expect((await toolResult(t.key, "get_ad", { id: keep.id })).ad.status).toBe("active");

    const events = await until(async () => received("rule.triggered").length >= 1 && received("rule.triggered"), "rule.triggered");
    await new Promise((r) => setTimeout(r, 1500));
    expect(received("rule.triggered")).toHaveLength(1);
    expect(events[0].data.rule).toMatchObject({ name: "Pause cut", action: "pause_ads", matchCount: 2 });
    expect(events[0].data.rule.matches.map((m: any) => m.name).sort()).toEqual(["Cut three", "Cut two"]);

    // The platform stopped delivering the paused ads, and only those.
    const before = { cut: await totalImpressions(t.key, cut2.id), keep: await totalImpressions(t.key, keep.id) };
    await advance(t.workspaceId, 24);
    expect(await totalImpressions(t.key, cut2.id)).toBe(before.cut);
    expect(await totalImpressions(t.key, keep.id)).toBeGreaterThan(before.keep);

    // Re-activated by hand within the 180-minute cooldown: the rule leaves them alone.
    await toolResult(t.key, "activate_ads", { adIds: [cut2.id] });
    const { rules: soon } = await runAutomation(t.workspaceId);
    // The clock moved 24 h: a new hour, a new run. 24 h > 180 min, so the cooldown has passed: paused again.
    expect(soon[0].run).toMatchObject({ actionsTaken: 1, matches: expect.arrayContaining([expect.objectContaining({ objectId: cut2.id, skipped: null })]) });
    await toolResult(t.key, "activate_ads", { adIds: [cut2.id] });
    await advance(t.workspaceId, 1);
    const cooling = await toolResult(t.key, "preview_rule", { id: rule.id });
    expect(cooling.matches.find((m: any) => m.objectId === cut2.id)).toMatchObject({ act: false, skipped: "cooldown" });
    const { rules: within } = await runAutomation(t.workspaceId);
    expect(within[0].run).toMatchObject({ actionsTaken: 0 });
    expect((await toolResult(t.key, "get_ad", { id: cut2.id })).ad.status).toBe("active");
    await until(async () => received("rule.triggered").length >= 2, "the second run's rule.triggered");
    await new Promise((r) => setTimeout(r, 1500));
    // Runs: the first, the one 24 h later (acted), the one in the cooldown (nothing matched to act on: no event).
    expect(received("rule.triggered")).toHaveLength(2);
    const { runs: log } = await toolResult(t.key, "list_rule_runs", { id: rule.id });
    expect(log.map((r: any) => r.actionsTaken)).toEqual([0, 1, 2]);
    expect((await toolResult(t.key, "list_rules", {})).rules[0].lastRun).toMatchObject({ id: log[0].id, actionsTaken: 0 });
  }, 300_000);

  it("an activating rule switches on the ad it names and nothing above it: a campaign someone paused stays paused", async () => {
    const t = await createTenant();
    const { ads, campaign } = await activeAds(t, ["Wake me", "Sleeping sibling"]);
    await advance(t.workspaceId, 24);
    await toolResult(t.key, "pause_ads", { adIds: [ads[0].id] });
    await toolResult(t.key, "pause_campaign", { id: campaign.id });
    const { rule } = await toolResult(t.key, "create_rule", { ...pauseRule("wake"), name: "Wake up", action: { type: "activate" } });
    const preview = await toolResult(t.key, "preview_rule", { id: rule.id });
    expect(preview.matches.map((m: any) => m.change)).toEqual(["activate: paused -> active"]);

    await clearOfTheHour(60_000);
    expect((await runAutomation(t.workspaceId, rule.id)).rules[0].run).toMatchObject({ status: "completed", actionsTaken: 1, errors: [] });
    expect((await toolResult(t.key, "get_ad", { id: ads[0].id })).ad.status).toBe("active");
    expect((await toolResult(t.key, "get_campaign", { id: campaign.id })).campaign.status).toBe("paused");
  }, 120_000);

  it("raises an ad set's budget by a percent once however many evaluations of the hour run at once, up to its cap, then stays at the cap", async () => {
    const { tenant: t, received } = await tenantWithEndpoint(receiver, ["rule.triggered"]);
    const { adSet } = await activeAds(t, ["Budget ad"], 5000);
    await advance(t.workspaceId, 24);
    const { rule } = await toolResult(t.key, "create_rule", {
      name: "Scale winners",
      cooldownMinutes: 0,
      conditions: [
        { metric: "spend", operator: "gt", value: 0 },
        { metric: "ctr", operator: "gte", value: 0 },
      ],
      match: "all",
      window: "last_3_days",
      scope: { level: "ad_sets", ids: [adSet.id] },
      action: { type: "increase_budget", percent: 20, maxBudgetMinor: 6500 },
    });
    const preview = await toolResult(t.key, "preview_rule", { id: rule.id });
    expect(preview.matches).toEqual([expect.objectContaining({ objectId: adSet.id, act: true, change: "budget: 5000 -> 6000", newBudgetMinor: 6000 })]);

    // Three evaluations of the rule at once (run now, the hourly job, another instance): one acts, the others wait
    // for it and answer its run. Acted once: +20% once, one action, one event.
    await clearOfTheHour(60_000);
    const answers = (await Promise.all([1, 2, 3].map(() => runAutomation(t.workspaceId, rule.id)))).map((r) => r.rules[0]);
    expect(answers.filter((a: any) => !a.alreadyRan)).toHaveLength(1);
    expect(new Set(answers.map((a: any) => a.run.id)).size).toBe(1);
    for (const a of answers) expect(a).toMatchObject({ error: null, run: { status: "completed", actionsTaken: 1, errors: [] } });
    expect((await toolResult(t.key, "get_ad_set", { id: adSet.id })).adSet.budget).toEqual({ type: "daily", amountMinor: 6000 });
    expect((await toolResult(t.key, "list_rule_runs", { id: rule.id })).runs).toEqual([expect.objectContaining({ actionsTaken: 1 })]);
    const events = await until(async () => received("rule.triggered").length >= 1 && received("rule.triggered"), "rule.triggered");
    expect(events[0].data.rule).toMatchObject({ action: "increase_budget", matchCount: 1 });

    // The next hour: 6000 +20% = 7200, capped at 6500; then it stays at the cap.
    await advance(t.workspaceId, 1);
    expect((await runAutomation(t.workspaceId)).rules[0].run).toMatchObject({ actionsTaken: 1, errors: [] });
    expect((await toolResult(t.key, "get_ad_set", { id: adSet.id })).adSet.budget).toEqual({ type: "daily", amountMinor: 6500 });
    await advance(t.workspaceId, 1);
    const { rules: again } = await runAutomation(t.workspaceId);
    expect(again[0].run).toMatchObject({ actionsTaken: 0, matches: [expect.objectContaining({ skipped: "at_budget_cap" })] });
    expect((await toolResult(t.key, "get_ad_set", { id: adSet.id })).adSet.budget.amountMinor).toBe(6500);
    // One event per run that acted: the concurrent hour's and the capped raise's.
    await until(async () => received("rule.triggered").length >= 2, "the second run's rule.triggered");
    expect(received("rule.triggered")).toHaveLength(2);

    // Lowering: 6500 -25% = 4875, floor 5000.
    await toolResult(t.key, "update_rule", { id: rule.id, action: { type: "decrease_budget", percent: 25, minBudgetMinor: 5000 } });
    await advance(t.workspaceId, 1);
    await runAutomation(t.workspaceId);
    expect((await toolResult(t.key, "get_ad_set", { id: adSet.id })).adSet.budget.amountMinor).toBe(5000);
  }, 240_000);

  it("previews an unsaved definition, and refuses bad input with clear 400s; another workspace's rule is 404", async () => {
    const t = await createTenant();
    const unsaved = await toolResult(t.key, "preview_rule", {
      definition: {
        conditions: [{ metric: "cpa", operator: "gt", value: 10 }],
        window: "last_7_days",
        scope: { level: "campaigns" },
        action: { type: "pause" },
      },
    });
    expect(unsaved).toMatchObject({ inScope: 0, actions: 0, matches: [] });

    const bad = async (args: object, pattern: RegExp, tool = "create_rule") => {
      const res = await callTool(t.key, tool, args);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
      expect(res.body.error.message).toMatch(pattern);
    };
    await bad({ ...pauseRule("x"), conditions: [{ metric: "likes", operator: "gt", value: 1 }] }, /^Invalid input: conditions\.0\.metric/);
    await bad({ ...pauseRule("x"), window: "yesterday" }, /^Invalid input: window/);
    await bad({ ...pauseRule("x"), action: { type: "increase_budget", percent: 10 } }, /maxBudgetMinor: increase_budget needs a cap/);
    await bad({ ...pauseRule("x"), action: { type: "increase_budget", percent: 10, maxBudgetMinor: 9000 } }, /scope\.level: budget actions act on ad sets/);
    await bad({ ...pauseRule("x"), scope: { level: "ads", ids: ["ad_nope"] } }, /^Invalid input: scope\.ids: no ads ad_nope in this workspace/);
    await bad({ ...pauseRule("x"), conditions: [] }, /^Invalid input: conditions/);
    await bad({}, /^Invalid input: definition: give a saved rule's id or a definition/, "preview_rule");
    expect((await toolResult(t.key, "list_rules", {})).rules).toEqual([]);

    const { rule } = await toolResult(t.key, "create_rule", pauseRule("x"));
    const other = await createTenant();
    for (const [tool, args] of [
      ["preview_rule", { id: rule.id }],
      ["list_rule_runs", { id: rule.id }],
      ["update_rule", { id: rule.id, name: "x" }],
      ["delete_rule", { id: rule.id }],
    ] as const) {
      const res = await callTool(other.key, tool, args);
      expect(res.status).toBe(404);
    }
  });

  it("writes need the rules scope, reads ads_view; activating and budget rules need the launch permission", async () => {
    const t = await createTenant();
    const viewer = await createMemberKey(t, { role: "owner", scopes: ["ads_view"] });
    expect((await callTool(viewer.key, "list_rules", {})).status).toBe(200);
    const denied = await callTool(viewer.key, "create_rule", pauseRule("x"));
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toContain('"rules"');
    const editor = await createMemberKey(t, { role: "editor" });
    expect((await callTool(editor.key, "create_rule", pauseRule("x"))).status).toBe(200);
    const activate = await callTool(editor.key, "create_rule", { ...pauseRule("x"), action: { type: "activate" } });
    expect(activate.status).toBe(403);
    expect(activate.body.error.message).toContain("ads.launch");
  });
});
