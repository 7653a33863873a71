import { z } from "zod";
import { EventTypeSchema } from "@/lib/events/types";
import { listWebhookDeliveries, redeliverWebhookDelivery } from "@/lib/webhooks/deliveries";
import { deleteWebhookEndpoint, getWebhookEndpoint, saveWebhookUrl, setWebhookEvents } from "@/lib/webhooks/endpoint";
import { EventSummarySchema, WebhookDeliverySchema, WebhookEndpointSchema } from "@/lib/webhooks/schemas";
import { sendTestEvent } from "@/lib/webhooks/test-event";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

export const webhookTools = [
  defineTool({
    name: "get_webhook",
    title: "Get webhook endpoint",
    description: "The workspace's webhook endpoint: URL, signing secret, subscribed events and last-delivery health (webhook is null when none is set).",
    category: "webhooks",
    capability: "webhooks.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ webhook: WebhookEndpointSchema.nullable() }),
    handler: (principal) => getWebhookEndpoint(principal),
  }),
  defineTool({
    name: "set_webhook_url",
    title: "Set webhook URL",
    description: "Creates the workspace's webhook endpoint (generating its signing secret) or changes its URL (keeping the secret). Public HTTPS URLs only.",
    category: "webhooks",
    capability: "webhooks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ url: z.string().min(1).max(2048).describe("The HTTPS URL events are POSTed to") }),
    output: z.object({ webhook: WebhookEndpointSchema, created: z.boolean() }),
    handler: (principal, input) => saveWebhookUrl(principal, input),
  }),
  defineTool({
    name: "set_webhook_events",
    title: "Set webhook events",
    description: "Sets which event kinds the endpoint receives; null means all. Test events are always delivered. not_found until an endpoint exists.",
    category: "webhooks",
    capability: "webhooks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      events: z.array(EventTypeSchema).max(100).nullable().describe("Event kinds to receive, or null for every kind"),
    }),
    output: z.object({ webhook: WebhookEndpointSchema }),
    handler: setWebhookEvents,
  }),
  defineTool({
    name: "delete_webhook",
    title: "Delete webhook endpoint",
    description: "Removes the workspace's webhook endpoint and stops its pending retries; the delivery log stays for its 7 days.",
    category: "webhooks",
    capability: "webhooks.write",
    readOnly: false,
    destructive: true,
    input: z.strictObject({}),
    output: z.object({ ok: z.literal(true) }),
    handler: (principal) => deleteWebhookEndpoint(principal),
  }),
  defineTool({
    name: "test_webhook",
    title: "Send test webhook",
    description: "Fires a signed sample event of type test at the endpoint; its delivery appears in the delivery log.",
    category: "webhooks",
    capability: "webhooks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({}),
    output: z.object({ event: EventSummarySchema }),
    handler: (principal) => sendTestEvent(principal),
  }),
  defineTool({
    name: "list_webhook_deliveries",
    title: "List webhook deliveries",
    description: "The delivery log of the last 7 days, newest first: one entry per HTTP request, with request, response and outcome. Paginated.",
    category: "webhooks",
    capability: "webhooks.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({
      ...pageArgs({ defaultLimit: 50, maxLimit: 100 }),
      eventType: EventTypeSchema.optional().describe("Only deliveries of this event kind"),
      outcome: z.enum(["succeeded", "failed"]).optional().describe("Only succeeded or only failed deliveries"),
      eventId: idArg("Event").optional().describe("Only deliveries of this event"),
    }),
    output: z.object({ deliveries: z.array(WebhookDeliverySchema), nextCursor: z.string().nullable() }),
    handler: listWebhookDeliveries,
  }),
  defineTool({
    name: "redeliver_webhook_delivery",
    title: "Redeliver webhook",
    description: "Re-sends a logged delivery's event (same event id and payload, fresh signature) to the endpoint now; returns the new attempt.",
    category: "webhooks",
    capability: "webhooks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: idArg("Delivery") }),
    output: z.object({ delivery: WebhookDeliverySchema }),
    handler: redeliverWebhookDelivery,
  }),
];
