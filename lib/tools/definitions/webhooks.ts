import { z } from "zod";
import { EVENT_TYPES, EventTypeSchema } from "@/lib/events/types";
import { listWebhookDeliveries, redeliverWebhookDelivery } from "@/lib/webhooks/deliveries";
import { deleteWebhookEndpoint, getWebhookEndpoint, saveWebhookUrl, setWebhookEvents } from "@/lib/webhooks/endpoint";
import { EventSummarySchema, WebhookDeliverySchema, WebhookEndpointSchema } from "@/lib/webhooks/schemas";
import { sendTestEvent } from "@/lib/webhooks/test-event";
import { MAX_URL_LENGTH } from "@/lib/webhooks/url-policy";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const TAG = "Webhooks";
const EndpointBody = z.object({ webhook: WebhookEndpointSchema });

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
    rest: {
      method: "GET",
      path: "/api/v1/webhooks",
      operationId: "getWebhook",
      summary: "The webhook endpoint, its signing secret, subscribed events and last-delivery health",
      tag: TAG,
      status: 200,
      successDescription: "The endpoint; `webhook` is null while none is configured",
    },
  }),
  defineTool({
    name: "set_webhook_url",
    title: "Set webhook URL",
    description: "Creates the workspace's webhook endpoint (generating its signing secret) or changes its URL (keeping the secret). Public HTTPS URLs only.",
    category: "webhooks",
    capability: "webhooks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ url: z.string().min(1).max(MAX_URL_LENGTH).describe("Public https:// URL that receives the events") }),
    output: z.object({ webhook: WebhookEndpointSchema, created: z.boolean() }),
    handler: (principal, input) => saveWebhookUrl(principal, input),
    rest: {
      method: "PUT",
      path: "/api/v1/webhooks",
      operationId: "putWebhook",
      summary: "Create the endpoint or change its URL",
      description:
        "The URL must be public HTTPS: its host must resolve only to public addresses. Creating the endpoint generates its signing secret; " +
        "changing the URL keeps it. 201 when created, 200 when the URL was changed.",
      tag: TAG,
      status: 200,
      statusOf: ({ created }) => (created ? 201 : 200),
      successDescription: "The endpoint (status 201 when it was created)",
      otherAnswers: { sameBody: { "201": "Created: the workspace had no endpoint" } },
      respond: ({ webhook }) => ({ webhook }),
      responseSchema: EndpointBody,
    },
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
      // Checked by the domain, which names every unknown kind; the schema still lists the known ones.
      events: z
        .array(z.string().max(100).meta({ enum: EVENT_TYPES }))
        .max(100)
        .nullable()
        .describe("Event kinds to receive, or null for every kind"),
    }),
    output: z.object({ webhook: WebhookEndpointSchema }),
    handler: setWebhookEvents,
    rest: {
      method: "PATCH",
      path: "/api/v1/webhooks",
      operationId: "patchWebhook",
      summary: "Set the subscribed events",
      description: "`null` subscribes to every kind. Unknown names are refused with 400 `invalid_request` naming them. Test events are always delivered.",
      tag: TAG,
      status: 200,
      successDescription: "The endpoint",
      errors: ["not_found"],
    },
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
    rest: {
      method: "DELETE",
      path: "/api/v1/webhooks",
      operationId: "deleteWebhook",
      summary: "Remove the endpoint",
      description: "Pending retries stop. The delivery log stays for its 7 days. 404 when no endpoint is configured.",
      tag: TAG,
      status: 200,
      successDescription: "Removed",
      errors: ["not_found"],
    },
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
    rest: {
      method: "POST",
      path: "/api/v1/webhooks/test",
      operationId: "testWebhook",
      summary: "Fire a signed sample event (type `test`) at the endpoint",
      description: "The event is delivered in the background like any other (with retries); watch the delivery log. 404 when no endpoint is configured.",
      tag: TAG,
      status: 202,
      successDescription: "The event was recorded and queued for delivery",
      errors: ["not_found"],
    },
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
    output: z.object({
      deliveries: z.array(WebhookDeliverySchema),
      nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
    }),
    handler: listWebhookDeliveries,
    rest: {
      method: "GET",
      path: "/api/v1/webhooks/deliveries",
      operationId: "listWebhookDeliveries",
      summary: "The delivery log of the last 7 days",
      description: "One entry per HTTP request to the endpoint (attempts, retries and redeliveries), newest first.",
      tag: TAG,
      status: 200,
      successDescription: "A page of the log",
    },
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
    rest: {
      method: "POST",
      path: "/api/v1/webhooks/deliveries/{id}",
      operationId: "redeliverWebhook",
      summary: "Re-send a logged delivery",
      description:
        "Sends the same event (same id, same body bytes, fresh signature timestamp) to the endpoint's current URL now, and answers with the new " +
        "log entry, whatever the endpoint answered. 404 when the delivery is not in the log or no endpoint is configured.",
      tag: TAG,
      args: { id: { path: "id" } },
      status: 200,
      successDescription: "The new attempt",
      errors: ["not_found"],
    },
  }),
];
