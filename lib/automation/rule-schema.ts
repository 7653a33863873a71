import { z } from "zod";

/** A rule's definition: what tools accept, the database stores (AutomationRule.definition) and the editor builds. */

export const RULE_METRICS = [
  "spend",
  "impressions",
  "reach",
  "clicks",
  "ctr",
  "cpc",
  "cpm",
  "conversions",
  "cpa",
  "conversion_value",
  "roas",
  "frequency",
] as const;
export type RuleMetric = (typeof RULE_METRICS)[number];

export const RULE_WINDOWS = ["today", "last_3_days", "last_7_days", "last_14_days", "last_30_days"] as const;
export type RuleWindow = (typeof RULE_WINDOWS)[number];
export const WINDOW_DAYS: Record<RuleWindow, number> = { today: 1, last_3_days: 3, last_7_days: 7, last_14_days: 14, last_30_days: 30 };

export const RULE_OPERATORS = ["gt", "gte", "lt", "lte", "eq"] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export const RULE_LEVELS = ["campaigns", "ad_sets", "ads"] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];

export const RULE_ACTIONS = ["pause", "activate", "increase_budget", "decrease_budget"] as const;
export type RuleActionType = (typeof RULE_ACTIONS)[number];

export const ConditionSchema = z.strictObject({
  metric: z
    .enum(RULE_METRICS)
    .describe("spend, cpc, cpm, cpa and conversion_value in the account currency's major units (12.5 = 12.50 USD); ctr in percent; roas as a ratio"),
  operator: z.enum(RULE_OPERATORS),
  value: z.number().finite().min(0),
});

export const ScopeSchema = z
  .strictObject({
    level: z.enum(RULE_LEVELS).describe("What the rule matches and acts on"),
    ids: z.array(z.string().min(1).max(100)).min(1).max(200).optional().describe("Only these campaigns, ad sets or ads (ids of the level)"),
    nameContains: z.string().min(1).max(200).optional().describe("Only objects whose name contains this text (case-insensitive)"),
  })
  .describe("Without ids or nameContains: every campaign, ad set or ad of the workspace");

export const ActionSchema = z
  .strictObject({
    type: z.enum(RULE_ACTIONS),
    percent: z.number().finite().gt(0).max(500).optional().describe("increase_budget / decrease_budget: the change in percent"),
    maxBudgetMinor: z.number().int().positive().optional().describe("increase_budget: never above this daily budget (minor units)"),
    minBudgetMinor: z.number().int().positive().optional().describe("decrease_budget: never below this daily budget (minor units)"),
  })
  .superRefine((a, ctx) => {
    const budget = a.type === "increase_budget" || a.type === "decrease_budget";
    if (budget && a.percent === undefined) ctx.addIssue({ code: "custom", path: ["percent"], message: `${a.type} needs a percent` });
    if (a.type === "increase_budget" && a.maxBudgetMinor === undefined)
      ctx.addIssue({ code: "custom", path: ["maxBudgetMinor"], message: "increase_budget needs a cap (maxBudgetMinor)" });
    if (a.type === "decrease_budget" && a.minBudgetMinor === undefined)
      ctx.addIssue({ code: "custom", path: ["minBudgetMinor"], message: "decrease_budget needs a floor (minBudgetMinor)" });
    if (a.type === "decrease_budget" && a.percent !== undefined && a.percent >= 100)
      ctx.addIssue({ code: "custom", path: ["percent"], message: "decrease_budget percent must be below 100" });
    if (!budget && (a.percent !== undefined || a.maxBudgetMinor !== undefined || a.minBudgetMinor !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["type"], message: `${a.type} takes no percent or budget cap` });
    }
  });

export const RuleDefinitionFields = {
  conditions: z.array(ConditionSchema).min(1).max(10),
  match: z.enum(["all", "any"]).default("all").describe("all: every condition must hold; any: one is enough"),
  window: z.enum(RULE_WINDOWS).describe("The days of the ad account the metrics are summed over (today is partial)"),
  scope: ScopeSchema,
  action: ActionSchema,
};

export const RuleDefinitionSchema = z.strictObject(RuleDefinitionFields).superRefine((d, ctx) => {
  if ((d.action.type === "increase_budget" || d.action.type === "decrease_budget") && d.scope.level !== "ad_sets") {
    ctx.addIssue({
      code: "custom",
      path: ["scope", "level"],
      message: "budget actions act on ad sets (budgets live on ad sets / ad groups): use level ad_sets",
    });
  }
});
export type RuleDefinition = z.output<typeof RuleDefinitionSchema>;

export const COOLDOWN_MINUTES_MAX = 60 * 24 * 30;
