import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/roles";
import { setAdActive, setAdSetActive, setCampaignActive } from "@/lib/ads/status-changes";
import { setAdSetBudget } from "@/lib/ads/ad-sets";
import { getDb } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { emitEvent } from "@/lib/events/emit";
import { notifyRuleTriggered } from "@/lib/notifications/sources";
import type { AutomationRule, AutomationRuleRun } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import type { Budget } from "@/lib/platforms/ads-types";
import { principalForUser } from "@/lib/session/principal";
import { takeEvaluationSlot, type EvaluationSlot } from "./evaluation-slot";
import { planRule, type PlannedAction, type RulePlan } from "./plan";
import { RuleDefinitionSchema, type RuleDefinition } from "./rule-schema";

export interface RuleRunOut {
  id: string;
  ruleId: string;
  hour: string;
  status: string;
  matchCount: number;
  actionsTaken: number;
  errors: { objectId: string; name: string; message: string }[];
  matches: { objectId: string; name: string; campaignName: string; change: string; skipped: string | null }[];
  startedAt: string;
  finishedAt: string | null;
}

export function toRuleRun(row: AutomationRuleRun): RuleRunOut {
  const plan = row.plan as unknown as RulePlan;
  return {
    id: row.id,
    ruleId: row.ruleId,
    hour: row.hourKey,
    status: row.status,
    matchCount: row.matchCount,
    actionsTaken: row.actionsTaken,
    errors: row.errors as RuleRunOut["errors"],
    matches: plan.matches.map((m) => ({ objectId: m.objectId, name: m.name, campaignName: m.campaignName, change: m.change, skipped: m.skipped })),
    startedAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** The hour a run belongs to, on the ad account's clock: `2026-11-24T05:00:00.000Z`. */
export const hourKeyOf = (iso: string) => `${iso.slice(0, 13)}:00:00.000Z`;

/** `data.rule.action` of rule.triggered. */
export function eventAction(definition: RuleDefinition): string {
  const { type } = definition.action;
  return type === "pause" || type === "activate" ? `${type}_${definition.scope.level}` : type;
}

/**
 * Evaluates a rule for the current hour of its ad account's clock, once: the (rule, hour) run is
 * claimed with its plan fixed, and acted on while holding the rule's evaluation slot, so one
 * evaluation of a rule decides, acts and records at a time. A second, concurrent evaluation (run now,
 * the hourly job, another instance) waits for the slot; in the same hour it then finds the run done and
 * answers it with `alreadyRan` (it acts on nothing, emits nothing). One still waiting after WAIT_MS
 * gets a `conflict`. A run left unfinished by a killed process is finished by the next evaluation.
 */
export async function runRule(rule: AutomationRule): Promise<{ run: RuleRunOut; alreadyRan: boolean }> {
  const slot = await takeEvaluationSlot(rule.id);
  try {
    // Read again once the slot is ours: an evaluation that waited for another acts on the rule as it is now, and a
    // rule disabled or deleted meanwhile does nothing.
    const current = await getDb().automationRule.findFirst({ where: { id: rule.id, enabled: true } });
    if (!current) throw new AppError("conflict", `Rule ${rule.id} was disabled or deleted while this evaluation waited for another; nothing was done`);
    return await evaluate(current, slot);
  } finally {
    await slot.release();
  }
}

async function evaluate(rule: AutomationRule, slot: EvaluationSlot): Promise<{ run: RuleRunOut; alreadyRan: boolean }> {
  const db = getDb();
  const definition = RuleDefinitionSchema.parse(rule.definition);
  // Holding the slot, a run still `running` is one whose evaluation died or lost the slot: finish it.
  for (const stale of await db.automationRuleRun.findMany({ where: { ruleId: rule.id, status: "running" } })) await finishRun(rule, definition, stale, slot);
  const plan = await planRule({ workspaceId: rule.workspaceId }, definition, { ruleId: rule.id, cooldownMinutes: rule.cooldownMinutes });
  const hourKey = hourKeyOf(plan.now);
  await db.automationRuleRun.createMany({
    data: [{ id: newId("rrun"), workspaceId: rule.workspaceId, ruleId: rule.id, hourKey, plan: plan as object, matchCount: plan.matches.length }],
    skipDuplicates: true,
  });
  const run = await db.automationRuleRun.findUniqueOrThrow({ where: { ruleId_hourKey: { ruleId: rule.id, hourKey } } });
  if (run.status !== "running") return { run: toRuleRun(run), alreadyRan: true };
  return { run: toRuleRun(await finishRun(rule, definition, run, slot)), alreadyRan: false };
}

async function finishRun(rule: AutomationRule, definition: RuleDefinition, run: AutomationRuleRun, slot: EvaluationSlot): Promise<AutomationRuleRun> {
  const db = getDb();
  const plan = run.plan as unknown as RulePlan;
  const acting = plan.matches.filter((m) => m.act);
  const principal = acting.length ? await principalForUser(rule.createdById, rule.workspaceId) : null;
  for (const item of acting) {
    await db.automationRuleAction.createMany({
      data: [
        {
          id: newId("ract"),
          workspaceId: rule.workspaceId,
          ruleId: rule.id,
          runId: run.id,
          objectId: item.objectId,
          status: "pending",
          actedAt: new Date(plan.now),
        },
      ],
      skipDuplicates: true,
    });
    const action = await db.automationRuleAction.findUniqueOrThrow({ where: { runId_objectId: { runId: run.id, objectId: item.objectId } } });
    if (action.status !== "pending") continue;
    await slot.hold();
    let error: string | null = null;
    try {
      if (!principal || principal.workspaceId !== rule.workspaceId)
        throw new Error("The rule's author is no longer a member of the workspace; edit the rule to act as you");
      if (definition.action.type !== "pause" && !roleAllows(principal.role, "ads.launch"))
        throw new Error(`The rule's author (${principal.role}) may no longer launch ads or change budgets`);
      await act(principal, definition, item);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    await db.automationRuleAction.update({ where: { id: action.id }, data: { status: error ? "failed" : "done", error } });
  }
  const actions = await db.automationRuleAction.findMany({ where: { runId: run.id } });
  const done = acting.filter((m) => actions.some((a) => a.objectId === m.objectId && a.status === "done"));
  const errors = actions
    .filter((a) => a.status === "failed")
    .map((a) => ({ objectId: a.objectId, name: acting.find((m) => m.objectId === a.objectId)?.name ?? "", message: a.error ?? "" }));
  await slot.hold();
  if (done.length) {
    // One event per run: the dedupe key makes a continued run (its first evaluation died after emitting) answer the first.
    const event = await emitEvent({
      workspaceId: rule.workspaceId,
      type: "rule.triggered",
      dedupeKey: `rule.triggered:${run.id}`,
      data: {
        rule: {
          name: rule.name,
          action: eventAction(definition),
          matchCount: done.length,
          matches: done.map((m) => ({ name: m.name, campaignName: m.campaignName })),
        },
      },
    });
    await notifyRuleTriggered({
      workspaceId: rule.workspaceId,
      rule: { name: rule.name, createdById: rule.createdById },
      action: eventAction(definition),
      matches: done.map((m) => ({ name: m.name, campaignName: m.campaignName })),
      eventId: event.id,
    });
  }
  log.debug("automation rule run", {
    ruleId: rule.id,
    runId: run.id,
    hour: run.hourKey,
    matches: plan.matches.length,
    actionsTaken: done.length,
    errors: errors.length,
  });
  return db.automationRuleRun.update({
    where: { id: run.id },
    data: { status: errors.length ? "completed_with_errors" : "completed", actionsTaken: done.length, errors, finishedAt: new Date() },
  });
}

async function act(principal: Principal, definition: RuleDefinition, item: PlannedAction): Promise<void> {
  const { type } = definition.action;
  if (item.level === "ads") {
    await setAdActive(principal, { id: item.objectId }, type === "activate");
  } else if (item.level === "campaigns") {
    await setCampaignActive(principal, { id: item.objectId }, type === "activate");
  } else if (type === "pause" || type === "activate") {
    await setAdSetActive(principal, { id: item.objectId }, type === "activate");
  } else {
    const row = await getDb().adSet.findFirstOrThrow({ where: { id: item.objectId, workspaceId: principal.workspaceId } });
    await setAdSetBudget(principal, { id: item.objectId, budget: { type: row.budgetType as Budget["type"], amountMinor: item.newBudgetMinor! } });
  }
}

/**
 * Every enabled rule of the workspace (or one rule), each on its own: one failing rule does not stop the rest.
 * `code` is the failure's error code (`conflict`: another evaluation of the rule held it past WAIT_MS).
 */
export async function evaluateWorkspaceRules(
  workspaceId: string,
  ruleId?: string,
): Promise<{ ruleId: string; name: string; run: RuleRunOut | null; alreadyRan: boolean; error: string | null; code?: string }[]> {
  const rules = await getDb().automationRule.findMany({
    where: { workspaceId, enabled: true, ...(ruleId ? { id: ruleId } : {}) },
    orderBy: { createdAt: "asc" },
  });
  const out = [];
  for (const rule of rules) {
    try {
      const { run, alreadyRan } = await runRule(rule);
      out.push({ ruleId: rule.id, name: rule.name, run, alreadyRan, error: null });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      log.warn("automation rule failed", { ruleId: rule.id, error });
      out.push({ ruleId: rule.id, name: rule.name, run: null, alreadyRan: false, error, code: isAppError(err) ? err.code : "internal_error" });
    }
  }
  return out;
}

/** The workspaces with at least one enabled rule (the hourly job's steps). */
export async function workspacesWithRules(): Promise<string[]> {
  const rows = await getDb().automationRule.findMany({ where: { enabled: true }, distinct: ["workspaceId"], select: { workspaceId: true } });
  return rows.map((r) => r.workspaceId);
}
