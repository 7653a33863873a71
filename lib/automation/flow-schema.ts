import { Cron } from "croner";
import { z } from "zod";
import { EVENT_TYPES, type EventType } from "@/lib/events/types";

/**
 * Automation flows: a trigger (an event kind, or a cron schedule), an optional condition on the
 * trigger, and a signed webhook POST of a configured JSON object. `automation.event` cannot be a
 * trigger: a flow's own event would otherwise run flows again, endlessly.
 */
export const FLOW_TRIGGER_EVENTS = EVENT_TYPES.filter((t) => t !== "automation.event") as Exclude<EventType, "automation.event">[];

/** A dotted path into the trigger: `type`, `id`, `createdAt` or `data.<field>...` (array items by index). */
export const FieldPath = z
  .string()
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/, "must be a dotted field path such as data.rule.matchCount");

export const FLOW_OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte", "contains", "exists"] as const;

export const FlowConditionSchema = z
  .strictObject({
    path: FieldPath,
    operator: z.enum(FLOW_OPERATORS),
    value: z
      .union([z.string().max(1000), z.number().finite(), z.boolean(), z.null()])
      .optional()
      .describe("Not used by exists"),
  })
  .superRefine((c, ctx) => {
    if (c.operator !== "exists" && c.value === undefined) ctx.addIssue({ code: "custom", path: ["value"], message: `${c.operator} needs a value` });
    if (["gt", "gte", "lt", "lte"].includes(c.operator) && typeof c.value !== "number")
      ctx.addIssue({ code: "custom", path: ["value"], message: `${c.operator} compares numbers: value must be a number` });
  });
export type FlowCondition = z.output<typeof FlowConditionSchema>;

/** Parses a 5-field cron expression (UTC unless a time zone is given); throws a readable message. */
export function parseFlowCron(expression: string, timeZone: string | undefined): Cron {
  if (expression.trim().split(/\s+/).length !== 5)
    throw new Error(`"${expression}" is not a 5-field cron expression (minute hour day-of-month month day-of-week)`);
  try {
    return new Cron(expression.trim(), { timezone: timeZone ?? "UTC", mode: "5-part", domAndDow: false, paused: true });
  } catch (err) {
    throw new Error(`"${expression}": ${err instanceof Error ? err.message : String(err)}`);
  }
}

const TimeZone = z
  .string()
  .max(100)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone such as Europe/Berlin");

export const FlowTriggerSchema = z.union([
  z.strictObject({ event: z.enum(FLOW_TRIGGER_EVENTS as [string, ...string[]]).describe("An event kind (automation.event cannot trigger flows)") }),
  z
    .strictObject({
      schedule: z.string().min(9).max(100).describe("A 5-field cron expression, e.g. 0 9 * * 1 (09:00 on Mondays)"),
      timeZone: TimeZone.optional().describe("The schedule's time zone (default UTC)"),
    })
    .superRefine((s, ctx) => {
      try {
        parseFlowCron(s.schedule, s.timeZone);
      } catch (err) {
        ctx.addIssue({ code: "custom", path: ["schedule"], message: err instanceof Error ? err.message : String(err) });
      }
    }),
]);

/** A JSON object; string values may hold {{path}} templates filled from the trigger. */
export const FlowPayloadSchema = z
  .record(z.string().max(200), z.unknown())
  .refine((p) => JSON.stringify(p).length <= 16_384, "must be at most 16 KB as JSON")
  .describe(
    'The JSON object to send. A string value "{{data.rule.name}}" is replaced by that field of the trigger (its JSON value when the string is only the template)',
  );

export const FlowActionSchema = z.strictObject({
  url: z.string().min(1).max(2048).describe("Where to POST (https; plain http to private addresses only with WEBHOOKS_ALLOW_PRIVATE_URLS=1)"),
  payload: FlowPayloadSchema,
});
