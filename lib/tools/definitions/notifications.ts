import { z } from "zod";
import { getMyNotificationPreferences, setMyNotificationPreferences } from "@/lib/notifications/preferences";
import { NOTIFICATION_KINDS, NotificationKindSchema, NotificationPreferencesSchema, SlackChannelSchema } from "@/lib/notifications/schemas";
import { deleteSlackChannel, getSlackChannel, sendSlackTest, setSlackChannel } from "@/lib/notifications/slack";
import { MAX_URL_LENGTH } from "@/lib/webhooks/url-policy";
import { defineTool } from "../types";

const TAG = "Notifications";
const kindsList = NOTIFICATION_KINDS.join(", ");

export const notificationTools = [
  defineTool({
    name: "get_my_notification_preferences",
    title: "Get my notification preferences",
    description: `Which notifications you (the key's creator) get by email in this workspace, one entry per kind (${kindsList}), who each kind goes to, and whether email is sent or waits in the server's outbox (no SMTP server configured).`,
    category: "notifications",
    capability: "notifications.self",
    readOnly: true,
    destructive: false,
    input: z.strictObject({}),
    output: NotificationPreferencesSchema,
    handler: (principal) => getMyNotificationPreferences(principal),
    rest: {
      method: "GET",
      path: "/api/v1/notifications/preferences",
      operationId: "getMyNotificationPreferences",
      summary: "Your email notification choices in this workspace",
      tag: TAG,
      status: 200,
      successDescription: "One entry per kind",
    },
  }),
  defineTool({
    name: "set_my_notification_preferences",
    title: "Set my notification preferences",
    description:
      'Switches kinds of email notification on or off for you (the key\'s creator) in this workspace, e.g. {"email":{"task_due":false}}; kinds not named keep their setting. Everything is on until switched off.',
    category: "notifications",
    capability: "notifications.self",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      email: z.partialRecord(NotificationKindSchema, z.boolean()).describe("Kind -> true (email me) or false (do not); at least one kind"),
    }),
    output: NotificationPreferencesSchema,
    handler: (principal, input) => setMyNotificationPreferences(principal, input),
    rest: {
      method: "PATCH",
      path: "/api/v1/notifications/preferences",
      operationId: "patchMyNotificationPreferences",
      summary: "Switch email notification kinds on or off for yourself",
      tag: TAG,
      status: 200,
      successDescription: "Your choices after the change",
    },
  }),
  defineTool({
    name: "get_slack_channel",
    title: "Get Slack channel",
    description:
      "The workspace's Slack channel for notifications (its incoming-webhook URL hidden but for the host, and the kinds it gets); slack is null when none is set.",
    category: "notifications",
    capability: "notifications.slack.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ slack: SlackChannelSchema.nullable() }),
    handler: (principal) => getSlackChannel(principal),
    rest: {
      method: "GET",
      path: "/api/v1/notifications/slack",
      operationId: "getSlackChannel",
      summary: "The workspace's Slack channel for notifications",
      tag: TAG,
      status: 200,
      successDescription: "The channel; `slack` is null while none is set",
    },
  }),
  defineTool({
    name: "set_slack_channel",
    title: "Set Slack channel",
    description:
      "Sets the workspace's Slack channel: a Slack incoming-webhook URL (public HTTPS; stored encrypted, never shown again) and the kinds posted to it (all when not given). Either may be changed alone once the channel exists.",
    category: "notifications",
    capability: "notifications.slack.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      url: z.string().min(1).max(MAX_URL_LENGTH).optional().describe("The incoming-webhook URL, e.g. https://hooks.slack.com/services/T…/B…/…"),
      kinds: z.array(NotificationKindSchema).max(NOTIFICATION_KINDS.length).optional().describe("Kinds posted to the channel (default: all)"),
    }),
    output: z.object({ slack: SlackChannelSchema }),
    handler: (principal, input) => setSlackChannel(principal, input),
    rest: {
      method: "PUT",
      path: "/api/v1/notifications/slack",
      operationId: "putSlackChannel",
      summary: "Set the workspace's Slack channel (incoming-webhook URL) and its kinds",
      tag: TAG,
      status: 200,
      successDescription: "The channel",
    },
  }),
  defineTool({
    name: "delete_slack_channel",
    title: "Remove Slack channel",
    description: "Removes the workspace's Slack channel: nothing more is posted to it. not_found when none is set.",
    category: "notifications",
    capability: "notifications.slack.write",
    readOnly: false,
    destructive: true,
    input: z.strictObject({}),
    output: z.object({ ok: z.literal(true) }),
    handler: (principal) => deleteSlackChannel(principal),
    rest: {
      method: "DELETE",
      path: "/api/v1/notifications/slack",
      operationId: "deleteSlackChannel",
      summary: "Remove the workspace's Slack channel",
      tag: TAG,
      status: 200,
      successDescription: "Removed",
      errors: ["not_found"],
    },
  }),
  defineTool({
    name: "send_slack_test",
    title: "Send Slack test message",
    description:
      "Posts a test message to the workspace's Slack channel now; upstream_error with Slack's answer when it is refused, not_found when no channel is set.",
    category: "notifications",
    capability: "notifications.slack.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ sent: z.literal(true) }),
    handler: (principal) => sendSlackTest(principal),
    rest: {
      method: "POST",
      path: "/api/v1/notifications/slack/test",
      operationId: "sendSlackTest",
      summary: "Post a test message to the Slack channel",
      tag: TAG,
      status: 200,
      successDescription: "Slack took the message",
      errors: ["not_found", "upstream_error"],
    },
  }),
];
