import { z } from "zod";
import { UploadSchema } from "@/lib/uploads/upload-schema";

/**
 * Every webhook event kind and its `data` payload, written once: emitEvent validates
 * against these, the OpenAPI document and docs/webhooks.md describe them.
 * Field names the spec does not show are decisions recorded in docs/decisions.md.
 */

const isoTime = z.string().describe("ISO 8601, UTC");
/** A link into the dashboard, absolute (PUBLIC_BASE_URL). */
const link = z.string().describe("Absolute URL that opens the object in the dashboard");

const UploadEventData = z.object({ upload: UploadSchema });

const AdCreatedData = z.object({
  ad: z.object({ adId: z.string(), name: z.string(), adsetId: z.string(), creativeId: z.string() }),
});

const RuleTriggeredData = z.object({
  rule: z.object({
    name: z.string(),
    /** Spec shows a pause action and mentions activation and budget changes; free-form so new actions need no schema change. */
    action: z
      .string()
      .describe(
        "What the rule did: pause_ads, pause_ad_sets, pause_campaigns, activate_ads, activate_ad_sets, activate_campaigns, increase_budget or decrease_budget",
      ),
    matchCount: z.number().int(),
    matches: z.array(z.object({ name: z.string(), campaignName: z.string() })),
  }),
});

const ReviewCommentData = z.object({
  comment: z.object({ creativeId: z.string(), fileName: z.string(), author: z.string(), body: z.string(), guest: z.boolean() }),
});

const ReviewStatusChangedData = z.object({
  review: z.object({
    creativeId: z.string(),
    fileName: z.string(),
    actorName: z.string(),
    status: z.enum(["approved", "in_review", "changes_requested"]),
  }),
});

const ReviewVersionUploadedData = z.object({
  version: z.object({ creativeId: z.string(), fileName: z.string(), actorName: z.string(), versionNumber: z.number().int() }),
});

const ReviewLinkViewedData = z.object({ link: z.object({ linkId: z.string(), subject: z.string() }) });

const TeamMemberJoinedData = z.object({ member: z.object({ name: z.string(), email: z.string() }) });

const CreativeTestCompletedData = z.object({
  test: z.object({
    testId: z.string(),
    name: z.string(),
    outcome: z.enum(["won", "lost"]),
    decidedAt: isoTime,
    metric: z.string().describe("The metric the test was decided on, e.g. cpa, ctr, roas"),
    currency: z.string().describe("The ad set's ad account currency (ISO 4217): spend and a cpa test's values are in its major units"),
    winner: z.object({ creativeId: z.string(), fileName: z.string(), value: z.number().nullable() }).nullable(),
    variants: z.array(z.object({ creativeId: z.string(), fileName: z.string(), value: z.number().nullable(), spend: z.number() })),
  }),
});

const PerformanceLabel = z.enum(["winner", "loser", "fatigued", "neutral"]);
const ThirtyDayNumbers = z.object({
  currency: z
    .string()
    .describe(
      "The currency (ISO 4217) spend and cpa are in: the creative's ad accounts in one currency, the one with more impressions when it delivers in two",
    ),
  spend: z.number(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  ctr: z.number().nullable(),
  cpa: z.number().nullable(),
  roas: z.number().nullable(),
});

const CreativeStatusChangedData = z.object({
  creative: z.object({ id: z.string(), fileName: z.string(), kind: z.enum(["image", "video"]) }),
  label: PerformanceLabel,
  previousLabel: PerformanceLabel,
  last30Days: ThirtyDayNumbers,
  ads: z.array(z.object({ adId: z.string(), name: z.string(), platform: z.enum(["platform_a", "platform_b"]), status: z.string() })),
});

const LeadReceivedData = z.object({
  lead: z.object({ leadId: z.string(), submittedAt: isoTime }),
  form: z.object({ formId: z.string(), name: z.string() }),
  ad: z.object({ adId: z.string(), name: z.string() }).nullable().describe("The workspace's ad the submission came from; null when Adloom did not make it"),
  adExternalId: z.string().nullable().describe("The platform's ad id, when the platform names one (also for ads made outside Adloom)"),
  fields: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
});

const AutomationEventData = z.object({
  automationId: z.string(),
  automationName: z.string(),
  event: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});

const TaskRef = z.object({ taskId: z.string(), title: z.string(), url: link });
const Person = z.object({ userId: z.string(), name: z.string() });

const TaskAssignedData = z.object({
  task: TaskRef.extend({ dueDate: z.string().nullable() }),
  list: z.object({ listId: z.string(), name: z.string() }),
  assignees: z.array(Person.extend({ email: z.string() })).describe("The newly assigned people"),
  assignedBy: Person,
});

const TaskCommentData = z.object({
  task: TaskRef,
  comment: z.object({ commentId: z.string(), body: z.string(), createdAt: isoTime }),
  author: Person,
});

const TaskDueData = z.object({
  date: z.string().describe("The owner's local date (YYYY-MM-DD) the digest is for"),
  timeZone: z.string().describe("The owner's time zone the morning was read in"),
  tasks: z.array(
    TaskRef.extend({
      kind: z.enum(["due_soon", "overdue"]),
      dueDate: z.string().describe("YYYY-MM-DD"),
      assignees: z.array(Person),
    }),
  ),
});

const TestEventData = z.object({
  message: z.string(),
  triggeredBy: z.object({ userId: z.string(), name: z.string() }).nullable(),
});

/** Payload schema of every event kind, keyed by the envelope's `type`. */
export const EVENT_DATA_SCHEMAS = {
  "upload.completed": UploadEventData,
  "upload.failed": UploadEventData,
  "ad.created": AdCreatedData,
  "rule.triggered": RuleTriggeredData,
  "review.comment": ReviewCommentData,
  "review.status_changed": ReviewStatusChangedData,
  "review.version_uploaded": ReviewVersionUploadedData,
  "review.link_viewed": ReviewLinkViewedData,
  "team.member_joined": TeamMemberJoinedData,
  "test.completed": CreativeTestCompletedData,
  "creative.status_changed": CreativeStatusChangedData,
  "lead.received": LeadReceivedData,
  "automation.event": AutomationEventData,
  "task.assigned": TaskAssignedData,
  "task.comment": TaskCommentData,
  "task.due": TaskDueData,
  test: TestEventData,
} as const satisfies Record<string, z.ZodType>;

export type EventType = keyof typeof EVENT_DATA_SCHEMAS;
export type EventData<T extends EventType> = z.input<(typeof EVENT_DATA_SCHEMAS)[T]>;

export const EVENT_TYPES = Object.keys(EVENT_DATA_SCHEMAS) as EventType[];

/** Kinds that are sent whatever the endpoint subscribes to. */
export const ALWAYS_DELIVERED: ReadonlySet<EventType> = new Set<EventType>(["test"]);

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_DATA_SCHEMAS, value);
}

/** The envelope every delivery carries. */
export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  createdAt: string;
  data: EventData<T>;
}

export const EventTypeSchema = z.enum(EVENT_TYPES as [EventType, ...EventType[]]);
