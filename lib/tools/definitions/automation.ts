import { z } from "zod";
import { createFlow, deleteFlow, listFlows } from "@/lib/automation/flows";
import { FlowActionSchema, FlowConditionSchema, FlowTriggerSchema } from "@/lib/automation/flow-schema";
import { COOLDOWN_MINUTES_MAX, RULE_METRICS, RuleDefinitionFields, RuleDefinitionSchema } from "@/lib/automation/rule-schema";
import { createRule, deleteRule, listRuleRuns, listRules, previewRule, updateRule } from "@/lib/automation/rules";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const page = pageArgs({ defaultLimit: 50, maxLimit: 200 });
const RuleName = z.string().trim().min(1).max(200);
const Cooldown = z.number().int().min(0).max(COOLDOWN_MINUTES_MAX).describe("Minutes an object acted on is left alone by this rule (0: none)");

const MetricsSchema = z.object(
  Object.fromEntries(RULE_METRICS.map((m) => [m, z.number().nullable()])) as Record<(typeof RULE_METRICS)[number], z.ZodNullable<z.ZodNumber>>,
);

const RuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  cooldownMinutes: z.number().int(),
  ...RuleDefinitionFields,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastRun: z.object({ id: z.string(), hour: z.string(), status: z.string(), matchCount: z.number().int(), actionsTaken: z.number().int() }).nullable(),
});

const PlanSchema = z.object({
  now: z.string().describe("The ad account's clock the rule was read at"),
  window: z.object({ since: z.string(), until: z.string() }).nullable(),
  currency: z.string().nullable(),
  inScope: z.number().int().describe("Objects in the scope before the conditions"),
  actions: z.number().int().describe("Matches the action would change"),
  matches: z.array(
    z.object({
      objectId: z.string(),
      level: z.string(),
      name: z.string(),
      campaignName: z.string(),
      platform: z.string(),
      metrics: MetricsSchema,
      act: z.boolean(),
      change: z.string(),
      skipped: z.string().nullable().describe("already_paused, already_active, at_budget_cap or cooldown"),
      newBudgetMinor: z.number().int().nullable(),
    }),
  ),
});

const RunSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  hour: z.string().describe("The evaluated hour on the ad account's clock"),
  status: z.string().describe("running, completed or completed_with_errors"),
  matchCount: z.number().int(),
  actionsTaken: z.number().int(),
  errors: z.array(z.object({ objectId: z.string(), name: z.string(), message: z.string() })),
  matches: z.array(z.object({ objectId: z.string(), name: z.string(), campaignName: z.string(), change: z.string(), skipped: z.string().nullable() })),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});

const FlowSchema = z.object({
  id: z.string(),
  name: z.string(),
  trigger: z.union([z.object({ event: z.string() }), z.object({ schedule: z.string(), timeZone: z.string() })]),
  condition: z.object({ path: z.string(), operator: z.string(), value: z.unknown().optional() }).nullable(),
  action: z.object({ url: z.string(), payload: z.record(z.string(), z.unknown()) }),
  createdAt: z.string(),
  lastRun: z.object({ status: z.string(), responseStatus: z.number().int().nullable(), error: z.string().nullable(), at: z.string() }).nullable(),
});

// Reading rules and flows is reading ads' results (ads_view); writing needs the rules scope.
const read = { category: "automations", capability: "ads.read", readOnly: true, destructive: false } as const;
const manage = { category: "automations", capability: "rules.manage", readOnly: false, destructive: false } as const;

export const automationTools = [
  defineTool({
    ...manage,
    destructive: true,
    name: "create_rule",
    title: "Create automation rule",
    description:
      "Saves an automation rule, evaluated every hour: when the metrics of a campaign, ad set or ad in the scope meet the conditions over the window, " +
      "the action pauses or activates it, or raises or lowers an ad set's budget by a percent within a cap. An object acted on is left alone for the cooldown. " +
      "Activating and budget actions also need the launch permission. preview_rule shows what it would do now.",
    input: z
      .strictObject({ name: RuleName, enabled: z.boolean().optional().describe("Default true"), cooldownMinutes: Cooldown, ...RuleDefinitionFields })
      .superRefine((v, ctx) => {
        const r = RuleDefinitionSchema.safeParse({ conditions: v.conditions, match: v.match, window: v.window, scope: v.scope, action: v.action });
        if (!r.success)
          for (const issue of r.error.issues) if (issue.code === "custom") ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      }),
    output: z.object({ rule: RuleSchema }),
    handler: createRule,
  }),
  defineTool({
    ...manage,
    destructive: true,
    name: "update_rule",
    title: "Update automation rule",
    description: "Changes a rule's name, enabled flag, cooldown or any part of its definition (checked whole). The rule then acts as the caller.",
    input: z.strictObject({
      id: idArg("Rule"),
      name: RuleName.optional(),
      enabled: z.boolean().optional(),
      cooldownMinutes: Cooldown.optional(),
      conditions: RuleDefinitionFields.conditions.optional(),
      match: z.enum(["all", "any"]).optional(),
      window: RuleDefinitionFields.window.optional(),
      scope: RuleDefinitionFields.scope.optional(),
      action: RuleDefinitionFields.action.optional(),
    }),
    output: z.object({ rule: RuleSchema }),
    handler: updateRule,
  }),
  defineTool({
    ...manage,
    destructive: true,
    name: "delete_rule",
    title: "Delete automation rule",
    description: "Deletes a rule and its run log.",
    input: z.strictObject({ id: idArg("Rule") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteRule,
  }),
  defineTool({
    ...read,
    name: "list_rules",
    title: "List automation rules",
    description: "The workspace's automation rules, newest first, each with its last run. Paginated.",
    input: z.strictObject({ ...page }),
    output: z.object({ rules: z.array(RuleSchema), nextCursor: z.string().nullable() }),
    handler: listRules,
  }),
  defineTool({
    ...read,
    name: "preview_rule",
    title: "Preview automation rule",
    description:
      "Dry run: what a rule matches now, with each match's metrics and what the action would do (or why it would not: already in that state, at the budget cap, in the cooldown). " +
      "Give a saved rule's id, an unsaved definition, or both (the definition replaces the saved one; the saved rule's cooldown applies). Changes nothing.",
    input: z
      .strictObject({
        id: idArg("Rule").optional(),
        definition: RuleDefinitionSchema.optional(),
        cooldownMinutes: Cooldown.optional(),
      })
      .refine((v) => v.id !== undefined || v.definition !== undefined, { message: "give a saved rule's id or a definition", path: ["definition"] }),
    output: PlanSchema,
    handler: previewRule,
  }),
  defineTool({
    ...read,
    name: "list_rule_runs",
    title: "List rule runs",
    description: "A rule's run log, newest first: each hour it ran, what matched, the actions taken and the errors. Paginated.",
    input: z.strictObject({ id: idArg("Rule"), ...page }),
    output: z.object({ runs: z.array(RunSchema), nextCursor: z.string().nullable() }),
    handler: listRuleRuns,
  }),
  defineTool({
    ...manage,
    name: "create_automation_flow",
    title: "Create automation flow",
    description:
      "Saves a flow: when the trigger happens (an event kind, or a cron schedule) and the optional condition holds on it, POSTs the configured JSON object to the URL, " +
      "signed like webhooks (service-signature and webhook-signature with the secret answered here, once), then emits automation.event. " +
      "Templates {{data.field}} in the object's strings are filled from the event. automation.event itself cannot trigger flows. Needs the admin role.",
    input: z.strictObject({
      name: RuleName,
      trigger: FlowTriggerSchema,
      condition: FlowConditionSchema.nullable().optional().describe("A field of the trigger (type, id, createdAt, data.<field>...) compared with a value"),
      action: FlowActionSchema,
    }),
    output: z.object({ flow: FlowSchema, secret: z.string().describe("The signing secret; shown only here") }),
    handler: createFlow,
  }),
  defineTool({
    ...read,
    name: "list_automation_flows",
    title: "List automation flows",
    description: "The workspace's automation flows, newest first, each with its last run. Paginated.",
    input: z.strictObject({ ...page }),
    output: z.object({ flows: z.array(FlowSchema), nextCursor: z.string().nullable() }),
    handler: listFlows,
  }),
  defineTool({
    ...manage,
    destructive: true,
    name: "delete_automation_flow",
    title: "Delete automation flow",
    description: "Deletes a flow and its run history.",
    input: z.strictObject({ id: idArg("Automation flow") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteFlow,
  }),
];
