import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { AutomationRule } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { planRule, type RulePlan } from "./plan";
import { RuleDefinitionSchema, type RuleDefinition } from "./rule-schema";
import { toRuleRun, type RuleRunOut } from "./run";

export interface RuleOut extends RuleDefinition {
  id: string;
  name: string;
  enabled: boolean;
  cooldownMinutes: number;
  createdAt: string;
  updatedAt: string;
  lastRun: { id: string; hour: string; status: string; matchCount: number; actionsTaken: number } | null;
}

export function toRule(row: AutomationRule, lastRun: RuleOut["lastRun"] = null): RuleOut {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    cooldownMinutes: row.cooldownMinutes,
    ...RuleDefinitionSchema.parse(row.definition),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastRun,
  };
}

async function requireRule(principal: Pick<Principal, "workspaceId">, id: string): Promise<AutomationRule> {
  const row = await getDb().automationRule.findFirst({ where: { id, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Rule");
  return row;
}

/** Ids in the scope must be the workspace's campaigns, ad sets or ads of that level. */
async function checkScopeIds(principal: Pick<Principal, "workspaceId">, definition: RuleDefinition): Promise<void> {
  const ids = definition.scope.ids;
  if (!ids) return;
  const db = getDb();
  const where = { id: { in: ids }, workspaceId: principal.workspaceId };
  const found =
    definition.scope.level === "campaigns"
      ? await db.adCampaign.findMany({ where, select: { id: true } })
      : definition.scope.level === "ad_sets"
        ? await db.adSet.findMany({ where, select: { id: true } })
        : await db.ad.findMany({ where, select: { id: true } });
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length)
    throw new AppError("invalid_input", `Invalid input: scope.ids: no ${definition.scope.level.replace("_", " ")} ${missing.join(", ")} in this workspace`);
}

/** A rule that activates or changes budgets spends money: its author must be allowed to launch (role and key scope). */
export function requireLaunchFor(principal: Principal, definition: RuleDefinition): void {
  if (definition.action.type !== "pause") authorize(principal, "ads.launch");
}

export interface RuleInput extends RuleDefinition {
  name: string;
  enabled?: boolean;
  cooldownMinutes: number;
}

export async function createRule(principal: Principal, input: RuleInput): Promise<{ rule: RuleOut }> {
  const { name, enabled, cooldownMinutes, ...definition } = input;
  requireLaunchFor(principal, definition);
  await checkScopeIds(principal, definition);
  const row = await getDb().automationRule.create({
    data: {
      id: newId("rule"),
      workspaceId: principal.workspaceId,
      name,
      enabled: enabled ?? true,
      cooldownMinutes,
      definition: definition as object,
      createdById: principal.userId,
    },
  });
  return { rule: toRule(row) };
}

/** Changes any part of a rule; the definition is checked whole. The editor becomes the one the rule acts as. */
export async function updateRule(principal: Principal, input: { id: string } & Partial<RuleInput>): Promise<{ rule: RuleOut }> {
  const row = await requireRule(principal, input.id);
  const current = RuleDefinitionSchema.parse(row.definition);
  const parsed = RuleDefinitionSchema.safeParse({
    conditions: input.conditions ?? current.conditions,
    match: input.match ?? current.match,
    window: input.window ?? current.window,
    scope: input.scope ?? current.scope,
    action: input.action ?? current.action,
  });
  if (!parsed.success) throw new AppError("invalid_input", `Invalid input: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  requireLaunchFor(principal, parsed.data);
  await checkScopeIds(principal, parsed.data);
  const saved = await getDb().automationRule.update({
    where: { id: row.id },
    data: {
      name: input.name ?? row.name,
      enabled: input.enabled ?? row.enabled,
      cooldownMinutes: input.cooldownMinutes ?? row.cooldownMinutes,
      definition: parsed.data as object,
      createdById: principal.userId,
    },
  });
  return { rule: toRule(saved) };
}

/** Deletes the rule with its run log. */
export async function deleteRule(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  const row = await requireRule(principal, input.id);
  const db = getDb();
  await db.$transaction([
    db.automationRuleAction.deleteMany({ where: { ruleId: row.id } }),
    db.automationRuleRun.deleteMany({ where: { ruleId: row.id } }),
    db.automationRuleEvaluation.deleteMany({ where: { ruleId: row.id } }),
    db.automationRule.delete({ where: { id: row.id } }),
  ]);
  return { ok: true };
}

export async function listRules(principal: Principal, input: { limit: number; cursor?: string }): Promise<{ rules: RuleOut[]; nextCursor: string | null }> {
  const db = getDb();
  const rows = await db.automationRule.findMany({
    where: { workspaceId: principal.workspaceId, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  const rules: RuleOut[] = [];
  for (const row of page.items) {
    const last = await db.automationRuleRun.findFirst({ where: { ruleId: row.id }, orderBy: NEWEST_FIRST });
    rules.push(
      toRule(row, last ? { id: last.id, hour: last.hourKey, status: last.status, matchCount: last.matchCount, actionsTaken: last.actionsTaken } : null),
    );
  }
  return { rules, nextCursor: page.nextCursor };
}

/**
 * The dry run: what the rule (saved, by id, or an unsaved definition) matches now and what its
 * action would do to each match. Nothing is changed. A saved rule's cooldown is applied.
 */
export async function previewRule(
  principal: Principal,
  input: { id?: string; definition?: RuleDefinition; cooldownMinutes?: number },
): Promise<RulePlan & { actions: number }> {
  let definition: RuleDefinition;
  let saved: { ruleId: string; cooldownMinutes: number } | null = null;
  if (input.id) {
    const row = await requireRule(principal, input.id);
    definition = input.definition ?? RuleDefinitionSchema.parse(row.definition);
    saved = { ruleId: row.id, cooldownMinutes: input.cooldownMinutes ?? row.cooldownMinutes };
  } else if (input.definition) {
    definition = input.definition;
  } else {
    throw new AppError("invalid_input", "Invalid input: give a saved rule's id or a definition to preview");
  }
  await checkScopeIds(principal, definition);
  const plan = await planRule(principal, definition, saved);
  return { ...plan, actions: plan.matches.filter((m) => m.act).length };
}

/** A rule's run log, newest first. */
export async function listRuleRuns(
  principal: Principal,
  input: { id: string; limit: number; cursor?: string },
): Promise<{ runs: RuleRunOut[]; nextCursor: string | null }> {
  const rule = await requireRule(principal, input.id);
  const rows = await getDb().automationRuleRun.findMany({
    where: { ruleId: rule.id, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { runs: page.items.map(toRuleRun), nextCursor: page.nextCursor };
}
