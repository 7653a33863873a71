// The shapes of the REST API's resources (see the API specification). Clients must
// ignore fields they do not recognize, so every type is open to additions.

export type Platform = "platform_a" | "platform_b";

export interface Account {
  id: string;
  name: string;
  email: string;
  plan: string | null;
  credits: number | null;
  trialEndsAt: string | null;
}

export interface Upload {
  id: string;
  fileName: string;
  kind: "image" | "video";
  sizeBytes: number;
  status: "processing" | "completed" | "failed";
  error: string | null;
  platform: Platform;
  platform_a: { imageHash: string | null; videoId: string | null };
  platform_b: { imageId: string | null; videoId: string | null };
  createdAt: string;
}

export interface Creative {
  id: string;
  fileName: string;
  kind: "image" | "video";
  contentType: string;
  status: "importing" | "ready" | "failed";
  width: number | null;
  height: number | null;
  mediaPath: string | null;
  previewPath?: string | null;
  copyCount: number;
  createdAt: string;
}

export interface CopyVariant {
  id: string;
  headline: string | null;
  primaryText: string | null;
  description: string | null;
  label: string | null;
  createdAt: string;
}

export interface CopyFields {
  headline?: string | null;
  primaryText?: string | null;
  description?: string | null;
  label?: string | null;
}

/** A tool catalog entry. */
export interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  category: string;
  destructive: boolean;
  readOnly: boolean;
  outputSchema?: JsonSchema;
}

export type JsonSchema = { [key: string]: unknown };

/** The workspace's webhook endpoint, as GET /api/v1/webhooks returns it (fields beyond these may appear). */
export type WebhookEndpoint = { [key: string]: unknown };
/** One delivery-log entry. */
export type WebhookDelivery = { id: string; [key: string]: unknown };

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
