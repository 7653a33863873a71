/**
 * A rule run killed midway and evaluated again, and two evaluations of one hour at once: the
 * domain functions the hourly job runs, against a real database and the sandbox platform.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";
import { clearOfTheHour } from "../helpers/wait";

/** Each campaign a rule's action changed, once per call of the ads domain (what reaches the platform). */
const activated = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/ads/status-changes", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/ads/status-changes")>();
  return {
    ...real,
    setCampaignActive: (...args: Parameters<typeof real.setCampaignActive>) => {
      activated.push(args[1].id);
      return real.setCampaignActive(...args);
    },
  };
});

let db: ReturnType<typeof import("@/lib/db/client").getDb>;

beforeAll(async () => {
  await useFreshDatabase("automation_rerun");
  db = (await import("@/lib/db/client")).getDb();
});
afterAll(async () => (await import("@/lib/services")).disposeServices());

/** A workspace with paused campaigns on the sandbox and a rule that activates campaigns named like "go". */
async function setup(names: string[]) {
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  const { principalForUser } = await import("@/lib/session/principal");
  const { createCampaign } = await import("@/lib/ads/campaigns");
  const { createRule } = await import("@/lib/automation/rules");
  const { workspaceId, ownerUserId } = await createWorkspace({ name: `Rerun ${Date.now()}`, plan: "pro" });
  const principal = (await principalForUser(ownerUserId, workspaceId))!;
  const campaigns = [];
  for (const name of names) campaigns.push((await createCampaign(principal, { platform: "platform_a", name, objective: "sales" })).campaign);
  const { rule } = await createRule(principal, {
    name: "Go live",
    cooldownMinutes: 60,
    conditions: [{ metric: "impressions", operator: "gte", value: 0 }],
    match: "all",
    window: "today",
    scope: { level: "campaigns", nameContains: "go" },
    action: { type: "activate" },
  });
  const row = await db.automationRule.findUniqueOrThrow({ where: { id: rule.id } });
  const triggered = async () => db.webhookEvent.findMany({ where: { workspaceId, type: "rule.triggered" } });
  return { workspaceId, principal, campaigns, rule: row, triggered };
}

describe("rule runs, once per hour", () => {
  it("a run killed after claiming its hour is finished by the next evaluation with the plan it claimed, acting and emitting once", async () => {
    const { planRule } = await import("@/lib/automation/plan");
    const { runRule, hourKeyOf } = await import("@/lib/automation/run");
    const { RuleDefinitionSchema } = await import("@/lib/automation/rule-schema");
    const { newId } = await import("@/lib/ids");
    const { campaigns, rule, triggered } = await setup(["go one", "go two", "stay"]);
    // Every evaluation below must fall in the hour the plan claims.
    await clearOfTheHour(30_000);

    // What runRule does before acting, then the process dies: the (rule, hour) row holds the plan, no action ran.
    const plan = await planRule({ workspaceId: rule.workspaceId }, RuleDefinitionSchema.parse(rule.definition), { ruleId: rule.id, cooldownMinutes: 60 });
    expect(
      plan.matches
        .filter((m) => m.act)
        .map((m) => m.name)
        .sort(),
    ).toEqual(["go one", "go two"]);
    await db.automationRuleRun.create({
      data: {
        id: newId("rrun"),
        workspaceId: rule.workspaceId,
        ruleId: rule.id,
        hourKey: hourKeyOf(plan.now),
        plan: plan as object,
        matchCount: plan.matches.length,
      },
    });

    // The dead process also left the rule's evaluation slot, until its lease runs out.
    await db.automationRuleEvaluation.create({ data: { ruleId: rule.id, holder: "reval_killed", leaseUntil: new Date(Date.now() - 1) } });

    const again = await runRule(rule);
    expect(again.alreadyRan).toBe(true);
    expect(again.run).toMatchObject({ status: "completed", actionsTaken: 2, matchCount: 2 });
    const statuses = await db.adCampaign.findMany({ where: { id: { in: campaigns.map((c) => c.id) } }, select: { name: true, status: true } });
    expect(Object.fromEntries(statuses.map((s) => [s.name, s.status]))).toEqual({ "go one": "active", "go two": "active", stay: "paused" });
    expect(await db.automationRuleRun.count({ where: { ruleId: rule.id } })).toBe(1);
    expect(await db.automationRuleAction.count({ where: { ruleId: rule.id, status: "done" } })).toBe(2);
    expect(await triggered()).toHaveLength(1);
    expect(JSON.parse((await triggered())[0]!.body).data.rule).toMatchObject({ name: "Go live", action: "activate_campaigns", matchCount: 2 });

    // Once more in the same hour: nothing new.
    expect((await runRule(rule)).alreadyRan).toBe(true);
    expect(await triggered()).toHaveLength(1);
  });

  it("two instances evaluating the same hour at once make one run, act on each object once and emit one event", async () => {
    const { runRule } = await import("@/lib/automation/run");
    const { rule, campaigns, triggered } = await setup(["go a", "go b"]);
    await clearOfTheHour(30_000);
    activated.length = 0;
    const results = await Promise.all([runRule(rule), runRule(rule), runRule(rule)]);
    expect(new Set(results.map((r) => r.run.id)).size).toBe(1);
    // One evaluation acted; the others waited for it and answer its run.
    expect(results.filter((r) => !r.alreadyRan)).toHaveLength(1);
    for (const r of results) expect(r.run).toMatchObject({ status: "completed", actionsTaken: 2 });
    expect(activated.sort()).toEqual(campaigns.map((c) => c.id).sort());
    expect(await db.automationRuleRun.count({ where: { ruleId: rule.id } })).toBe(1);
    expect(await db.automationRuleAction.count({ where: { ruleId: rule.id } })).toBe(2);
    expect(await triggered()).toHaveLength(1);
  });

  it("an evaluation that waited for the slot acts on the rule as it is then: a rule disabled meanwhile does nothing", async () => {
    const { takeEvaluationSlot } = await import("@/lib/automation/evaluation-slot");
    const { runRule } = await import("@/lib/automation/run");
    const { rule, triggered } = await setup(["go later"]);
    await clearOfTheHour(30_000);
    activated.length = 0;
    const holder = await takeEvaluationSlot(rule.id);
    const waiting = runRule(rule); // the row as the hourly job read it: enabled
    await db.automationRule.update({ where: { id: rule.id }, data: { enabled: false } });
    await holder.release();
    await expect(waiting).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/disabled or deleted/) });
    expect(activated).toEqual([]);
    expect(await db.automationRuleRun.count({ where: { ruleId: rule.id } })).toBe(0);
    expect(await triggered()).toHaveLength(0);
  });

  it("one evaluation holds a rule's slot at a time: another waits, and past its wait gets a conflict; a released slot is free", async () => {
    const { takeEvaluationSlot } = await import("@/lib/automation/evaluation-slot");
    const { rule } = await setup([]);
    const first = await takeEvaluationSlot(rule.id);
    await expect(takeEvaluationSlot(rule.id, 300)).rejects.toMatchObject({ code: "conflict" });
    await first.hold();
    await first.release();
    await expect(first.hold()).rejects.toMatchObject({ code: "conflict" });
    const second = await takeEvaluationSlot(rule.id, 0);
    await second.release();
    expect(await db.automationRuleEvaluation.count({ where: { ruleId: rule.id } })).toBe(0);
  });
});
