import { z } from "zod";
import { EventTypeSchema } from "@/lib/events/types";
import { defineOperation } from "@/lib/http/operation";
import { pageQuery } from "@/lib/http/pagination";
import { listWebhookDeliveries, redeliverWebhookDelivery } from "@/lib/webhooks/deliveries";
import { deleteWebhookEndpoint, getWebhookEndpoint, saveWebhookUrl, setWebhookEvents } from "@/lib/webhooks/endpoint";
import { EventSummarySchema, WebhookDeliverySchema, WebhookEndpointSchema } from "@/lib/webhooks/schemas";
import { sendTestEvent } from "@/lib/webhooks/test-event";
import { MAX_URL_LENGTH } from "@/lib/webhooks/url-policy";
import { workspaceEventStream } from "@/lib/webhooks/event-stream";

const TAG = "Webhooks";
const EndpointBody = z.object({ webhook: WebhookEndpointSchema });

export const getWebhook = defineOperation({
  method: "GET",
  path: "/api/v1/webhooks",
  operationId: "getWebhook",
  summary: "The webhook endpoint, its signing secret, subscribed events and last-delivery health",
  tag: TAG,
  capability: "webhooks.read",
  allowSession: true,
  success: {
    status: 200,
    description: "The endpoint; `webhook` is null while none is configured",
    schema: z.object({ webhook: WebhookEndpointSchema.nullable() }),
  },
  handler: async ({ principal }) => ({ status: 200, body: await getWebhookEndpoint(principal) }),
});

export const putWebhook = defineOperation({
  method: "PUT",
  path: "/api/v1/webhooks",
  operationId: "putWebhook",
  summary: "Create the endpoint or change its URL",
  description:
    "The URL must be public HTTPS: its host must resolve only to public addresses. Creating the endpoint generates its signing secret; " +
    "changing the URL keeps it. 201 when created, 200 when the URL was changed.",
  tag: TAG,
  capability: "webhooks.write",
  allowSession: true,
  body: z.object({ url: z.string().min(1).max(MAX_URL_LENGTH).describe("Public https:// URL that receives the events") }),
  success: { status: 200, description: "The endpoint (status 201 when it was created)", schema: EndpointBody },
  handler: async ({ principal, body }) => {
    const { webhook, created } = await saveWebhookUrl(principal, body);
    return { status: created ? 201 : 200, body: { webhook } };
  },
});

export const patchWebhook = defineOperation({
  method: "PATCH",
  path: "/api/v1/webhooks",
  operationId: "patchWebhook",
  summary: "Set the subscribed events",
  description: "`null` subscribes to every kind. Unknown names are refused with 400 `invalid_request` naming them. Test events are always delivered.",
  tag: TAG,
  capability: "webhooks.write",
  allowSession: true,
  body: z.object({
    events: z
      .array(z.string().max(100))
      .max(100)
      .nullable()
      .describe("Event kinds to receive, or null for all"),
  }),
  success: { status: 200, description: "The endpoint", schema: EndpointBody },
  errors: ["not_found"],
  handler: async ({ principal, body }) => ({ status: 200, body: await setWebhookEvents(principal, body) }),
});

export const deleteWebhook = defineOperation({
  method: "DELETE",
  path: "/api/v1/webhooks",
  operationId: "deleteWebhook",
  summary: "Remove the endpoint",
  description: "Pending retries stop. The delivery log stays for its 7 days. 404 when no endpoint is configured.",
  tag: TAG,
  capability: "webhooks.write",
  allowSession: true,
  success: { status: 200, description: "Removed", schema: z.object({ ok: z.literal(true) }) },
  errors: ["not_found"],
  handler: async ({ principal }) => ({ status: 200, body: await deleteWebhookEndpoint(principal) }),
});

export const testWebhook = defineOperation({
  method: "POST",
  path: "/api/v1/webhooks/test",
  operationId: "testWebhook",
  summary: "Fire a signed sample event (type `test`) at the endpoint",
  description: "The event is delivered in the background like any other (with retries); watch the delivery log. 404 when no endpoint is configured.",
  tag: TAG,
  capability: "webhooks.write",
  allowSession: true,
  success: { status: 202, description: "The event was recorded and queued for delivery", schema: z.object({ event: EventSummarySchema }) },
  errors: ["not_found"],
  handler: async ({ principal }) => ({ status: 202, body: await sendTestEvent(principal) }),
});

export const listWebhookDeliveriesOp = defineOperation({
  method: "GET",
  path: "/api/v1/webhooks/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "The delivery log of the last 7 days",
  description: "One entry per HTTP request to the endpoint (attempts, retries and redeliveries), newest first.",
  tag: TAG,
  capability: "webhooks.read",
  allowSession: true,
  query: pageQuery({ defaultLimit: 50, maxLimit: 100 }).extend({
    eventType: EventTypeSchema.optional().describe("Only deliveries of this event kind"),
    outcome: z.enum(["succeeded", "failed"]).optional().describe("Only successful or only failed attempts"),
    eventId: z.string().min(1).max(100).optional().describe("Only deliveries of this event"),
  }),
  success: {
    status: 200,
    description: "A page of the log",
    schema: z.object({
      deliveries: z.array(WebhookDeliverySchema),
      nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
    }),
  },
  handler: async ({ principal, query }) => ({ status: 200, body: await listWebhookDeliveries(principal, query) }),
});

export const redeliverWebhook = defineOperation({
  method: "POST",
  path: "/api/v1/webhooks/deliveries/{id}",
  operationId: "redeliverWebhook",
  summary: "Re-send a logged delivery",
  description:
    "Sends the same event (same id, same body bytes, fresh signature timestamp) to the endpoint's current URL now, and answers with the new " +
    "log entry, whatever the endpoint answered. 404 when the delivery is not in the log or no endpoint is configured.",
  tag: TAG,
  capability: "webhooks.write",
  allowSession: true,
  params: z.object({ id: z.string().min(1).max(100).describe("Delivery id (whd_...)") }),
  success: { status: 200, description: "The new attempt", schema: z.object({ delivery: WebhookDeliverySchema }) },
  errors: ["not_found"],
  handler: async ({ principal, params }) => ({ status: 200, body: await redeliverWebhookDelivery(principal, params) }),
});

/** Every webhook operation, in document order. */

export const streamEvents = defineOperation({
  method: "GET",
  path: "/api/v1/events/stream",
  operationId: "streamEvents",
  summary: "The workspace's events, live (Server-Sent Events)",
  description:
    "Streams every event of the key's workspace from the moment of connecting, as `text/event-stream`: one message per event with " +
    "`id:` the event id, `event:` its type and `data:` the envelope exactly as webhook deliveries carry it. Comment lines keep the " +
    "connection alive. Independent of the webhook endpoint and its subscription; `adloom webhooks listen` forwards it to a local URL.",
  tag: TAG,
  capability: "webhooks.read",
  query: z.object({
    events: z
      .string()
      .max(2000)
      .optional()
      .describe("Comma-separated event kinds to receive (default: all)")
      .refine((v) => !v || v.split(",").every((k) => EventTypeSchema.safeParse(k.trim()).success), "Unknown event kind"),
  }),
  success: { status: 200, description: "A `text/event-stream` of the workspace's events" },
  handler: async ({ principal, query, request }) =>
    new Response(
      workspaceEventStream(principal, { events: query.events ? query.events.split(",").map((k) => k.trim()) : null, signal: request.signal }),
      // no-transform keeps compression (which would hold frames back) off the stream.
      { status: 200, headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" } },
    ),
});

export const webhookOperations = [getWebhook, putWebhook, patchWebhook, deleteWebhook, testWebhook, listWebhookDeliveriesOp, redeliverWebhook, streamEvents];
