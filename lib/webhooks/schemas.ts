import { z } from "zod";
import { EVENT_TYPES } from "@/lib/events/types";

/** The workspace's webhook endpoint as the API shows it (owners and admins only: it carries the secret). */
export const WebhookEndpointSchema = z
  .object({
    id: z.string().describe("Endpoint id (whk_...)"),
    url: z.string().describe("Where events are POSTed"),
    secret: z
      .string()
      .describe(
        "The service-signature secret (adlsig_...; endpoints made before 2026-11-25 keep their whsec_... one): its UTF-8 bytes, prefix included, are the HMAC-SHA256 key of the service-signature header. Not a Standard Webhooks secret: use standardWebhooksSecret for that scheme. Kept when the URL changes",
      ),
    standardWebhooksSecret: z
      .string()
      .describe(
        "The same key in the Standard Webhooks form (whsec_ + base64 of the secret's bytes): pass it to a standardwebhooks library to verify the webhook-signature header",
      ),
    events: z
      .array(z.string())
      .nullable()
      .describe(`Subscribed event kinds; null means every kind. Test events are delivered regardless. Kinds: ${EVENT_TYPES.join(", ")}`),
    createdAt: z.string().describe("Creation time (ISO 8601, UTC)"),
    updatedAt: z.string().describe("Last change of URL or subscription (ISO 8601, UTC)"),
    health: z
      .object({
        lastDeliveryAt: z.string().nullable().describe("Time of the last delivery attempt"),
        lastDeliveryOutcome: z.enum(["succeeded", "failed"]).nullable(),
        lastResponseStatus: z.number().int().nullable().describe("HTTP status of the last attempt; null when no response arrived"),
        consecutiveFailures: z.number().int().describe("Failed attempts since the last success"),
      })
      .describe("Last-delivery health"),
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpointView = z.infer<typeof WebhookEndpointSchema>;

/** One entry of the delivery log: one HTTP request to the endpoint. */
export const WebhookDeliverySchema = z
  .object({
    id: z.string().describe("Delivery id (whd_...); POST /api/v1/webhooks/deliveries/{id} re-sends it"),
    eventId: z.string().describe("The event's id, the same on every retry and redelivery"),
    eventType: z.string(),
    attempt: z.number().int().describe("1 for the first attempt of an event, 2 for the immediate retry, and so on; 1 for a redelivery"),
    trigger: z.enum(["initial", "retry", "redelivery"]),
    url: z.string().describe("The endpoint URL at the time of the attempt"),
    outcome: z.enum(["succeeded", "failed"]),
    request: z.object({
      headers: z.record(z.string(), z.string()).describe("Request headers as sent, including service-signature"),
      body: z.string().describe("The raw JSON body, byte for byte what was signed"),
    }),
    response: z.object({
      status: z.number().int().nullable().describe("HTTP status; null when no response arrived"),
      body: z.string().nullable().describe("The first 4 KB of the response body"),
    }),
    durationMs: z.number().int(),
    error: z.string().nullable().describe("Why the attempt failed (timeout, refused connection, non-2xx status, refused address)"),
    nextRetryAt: z.string().nullable().describe("When the next automatic retry is due; null when none follows"),
    createdAt: z.string().describe("Time of the attempt (ISO 8601, UTC)"),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDeliveryView = z.infer<typeof WebhookDeliverySchema>;

export const EventSummarySchema = z
  .object({ id: z.string().describe("Event id (evt_...)"), type: z.string(), createdAt: z.string() })
  .meta({ id: "WebhookEventSummary" });
