import { z } from "zod";

/**
 * What people can be notified about, in the order the settings page lists them. The same kinds go
 * to email (each member chooses) and to the workspace's Slack channel (admins choose).
 */
export const NOTIFICATION_KINDS = [
  "review_requested",
  "review_approved",
  "changes_requested",
  "mention",
  "task_assigned",
  "task_due",
  "rule_triggered",
  "ad_account_reconnect",
  "import_finished",
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS);

/** Labels and who gets each kind by email: the settings page and the docs say the same. */
export const NOTIFICATION_KIND_INFO: Record<NotificationKind, { label: string; who: string }> = {
  review_requested: { label: "Review requested", who: "you, when someone asks you to review a creative" },
  review_approved: { label: "Creative approved", who: "whoever asked for the review, when a creative is approved" },
  changes_requested: { label: "Changes requested", who: "whoever asked for the review, when changes are requested" },
  mention: { label: "Mentions", who: "you, when a comment mentions @you (your name or email)" },
  task_assigned: { label: "Task assigned", who: "you, when you are assigned a task" },
  task_due: { label: "Tasks due", who: "you, on the morning your tasks are due tomorrow or overdue" },
  rule_triggered: { label: "Rule triggered", who: "the rule's author, owners and admins, when an automation rule acts" },
  ad_account_reconnect: { label: "Ad account needs reconnecting", who: "owners and admins, when a platform refuses an account's token" },
  import_finished: { label: "Import finished", who: "whoever started the import, when all its files are done" },
};

export const NotificationPreferenceSchema = z.object({
  kind: NotificationKindSchema,
  label: z.string(),
  who: z.string().describe("Who receives this kind by email"),
  email: z.boolean().describe("Whether you receive it by email"),
});

export const NotificationPreferencesSchema = z.object({
  preferences: z.array(NotificationPreferenceSchema),
  emailAddress: z.string().describe("Where the emails go (your account's address)"),
  emailTransport: z
    .enum(["smtp", "outbox"])
    .describe("smtp: emails are sent; outbox: no SMTP server is configured, so emails wait in the server's outbox (`npm run admin -- mail list`)"),
});

export const SlackChannelSchema = z.object({
  urlHint: z.string().describe("The incoming-webhook URL with its secret part hidden"),
  kinds: z.array(NotificationKindSchema).describe("The kinds posted to the channel"),
  updatedAt: z.string(),
});

export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;
export type SlackChannelView = z.infer<typeof SlackChannelSchema>;
