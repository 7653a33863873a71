// The shapes of the API's resources. Generated from the server's own schemas (./generated);
// clients must ignore fields they do not recognize, so new fields never break a caller.
import type { Copy, WebhookDelivery as GeneratedWebhookDelivery } from "./generated/schemas.js";

export type {
  Account,
  Copy,
  Creative,
  Tool,
  Upload,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventSummary,
} from "./generated/schemas.js";

/** A copy variant (the API's `Copy` component). */
export type CopyVariant = Copy;

/** The text fields of a copy variant, as written: each optional; null clears it. */
export type CopyFields = { [K in "headline" | "primaryText" | "description" | "label"]?: Copy[K] | undefined };

export type Platform = "platform_a" | "platform_b";

export type JsonSchema = { [key: string]: unknown };

/** The delivery-log filters of GET /api/v1/webhooks/deliveries. */
export interface DeliveryFilters {
  eventType?: string | undefined;
  outcome?: GeneratedWebhookDelivery["outcome"] | undefined;
  eventId?: string | undefined;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
