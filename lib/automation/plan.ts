import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { readScope, type Metrics, type ScopedObject } from "./metrics";
import type { RuleDefinition, RuleOperator } from "./rule-schema";

/** What a rule does to one matching object: the change, or why it does nothing. */
export interface PlannedAction {
  objectId: string;
  level: ScopedObject["level"];
  name: string;
  campaignName: string;
  platform: ScopedObject["platform"];
  metrics: Metrics;
  /** True when the run acts on this object. */
  act: boolean;
  /** What the action does, e.g. "pause: active -> paused" or "budget: 5000 -> 5500". */
  change: string;
  /** Why nothing is done: already in that state, at the budget cap, or in the cooldown. */
  skipped: "already_paused" | "already_active" | "at_budget_cap" | "cooldown" | null;
  /** Budget actions: the new amount (minor units), fixed when planned so a re-run sets the same value. */
  newBudgetMinor: number | null;
}

export interface RulePlan {
  now: string;
  window: { since: string; until: string } | null;
  currency: string | null;
  /** Objects the scope holds (before the conditions). */
  inScope: number;
  matches: PlannedAction[];
}

const COMPARE: Record<RuleOperator, (a: number, b: number) => boolean> = {
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
  eq: (a, b) => Math.abs(a - b) < 1e-9,
};

export function conditionsHold(definition: Pick<RuleDefinition, "conditions" | "match">, metrics: Metrics): boolean {
  const results = definition.conditions.map((c) => {
    const value = metrics[c.metric];
    return value !== null && COMPARE[c.operator](value, c.value);
  });
  return definition.match === "any" ? results.some(Boolean) : results.every(Boolean);
}

/** The budget after the change, within the cap (increase) or floor (decrease). */
export function changedBudget(action: RuleDefinition["action"], current: number): number {
  const factor = action.type === "increase_budget" ? 1 + action.percent! / 100 : 1 - action.percent! / 100;
  const next = Math.round(current * factor);
  return action.type === "increase_budget"
    ? Math.min(next, Math.max(current, action.maxBudgetMinor!))
    : Math.max(next, Math.min(current, action.minBudgetMinor!));
}

function planFor(definition: RuleDefinition, object: ScopedObject, metrics: Metrics, cooling: boolean): PlannedAction {
  const base = {
    objectId: object.id,
    level: object.level,
    name: object.name,
    campaignName: object.campaignName,
    platform: object.platform,
    metrics,
    newBudgetMinor: null,
  };
  const action = definition.action;
  const skip = (skipped: NonNullable<PlannedAction["skipped"]>, change: string): PlannedAction => ({ ...base, act: false, change, skipped });
  if (action.type === "pause" || action.type === "activate") {
    const target = action.type === "pause" ? "paused" : "active";
    if (object.status === target) return skip(action.type === "pause" ? "already_paused" : "already_active", `${action.type}: already ${target}`);
    if (cooling) return skip("cooldown", `${action.type}: in the cooldown`);
    return { ...base, act: true, change: `${action.type}: ${object.status} -> ${target}`, skipped: null };
  }
  const current = object.budget!.amountMinor;
  const next = changedBudget(action, current);
  if (next === current) return skip("at_budget_cap", `budget: ${current} stays (at the ${action.type === "increase_budget" ? "cap" : "floor"})`);
  if (cooling) return skip("cooldown", `budget: ${current} -> ${next} in the cooldown`);
  return { ...base, act: true, change: `budget: ${current} -> ${next}`, skipped: null, newBudgetMinor: next };
}

/**
 * What the rule matches now and what its action would do to each match: the dry-run preview,
 * and the plan a run fixes before acting. `ruleId` (a saved rule) applies its cooldown.
 */
export async function planRule(
  principal: Pick<Principal, "workspaceId">,
  definition: RuleDefinition,
  saved: { ruleId: string; cooldownMinutes: number } | null,
): Promise<RulePlan> {
  const reading = await readScope(principal, definition);
  const matched = reading.objects.filter((o) => conditionsHold(definition, o.metrics));
  let cooling = new Set<string>();
  if (saved && saved.cooldownMinutes > 0 && matched.length) {
    const recent = await getDb().automationRuleAction.findMany({
      where: {
        ruleId: saved.ruleId,
        status: "done",
        objectId: { in: matched.map((m) => m.object.id) },
        actedAt: { gt: new Date(reading.now.getTime() - saved.cooldownMinutes * 60_000) },
      },
      select: { objectId: true },
    });
    cooling = new Set(recent.map((r) => r.objectId));
  }
  return {
    now: reading.now.toISOString(),
    window: reading.window,
    currency: reading.currency,
    inScope: reading.objects.length,
    matches: matched.map((m) => planFor(definition, m.object, m.metrics, cooling.has(m.object.id))),
  };
}
