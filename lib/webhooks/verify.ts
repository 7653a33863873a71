import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Verifies an Adloom webhook delivery on the receiving side. Dependency-free (node:crypto only)
 * so the client library can ship it as is.
 *
 *   const event = verifyWebhook({ body: rawBodyBuffer, header: req.headers["service-signature"], secret });
 */

export type WebhookVerificationCode = "malformed_header" | "bad_signature" | "stale_timestamp" | "malformed_body";

export class WebhookVerificationError extends Error {
  constructor(
    readonly code: WebhookVerificationCode,
    message: string,
  ) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

export interface VerifiedWebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface VerifyWebhookInput {
  /** The raw request body exactly as received (never re-serialized JSON). */
  body: string | Buffer | Uint8Array;
  /** The `service-signature` header. */
  header: string | string[] | null | undefined;
  /** The endpoint's signing secret (whsec_...). */
  secret: string;
  /** Oldest accepted signature age, and most accepted clock skew, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Current time in Unix seconds (tests). */
  now?: number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Checks the signature and timestamp, then parses the envelope; throws WebhookVerificationError. */
export function verifyWebhook(input: VerifyWebhookInput): VerifiedWebhookEvent {
  const { timestamp, signatures } = parseSignatureHeader(input.header);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError("stale_timestamp", `The signature timestamp is more than ${tolerance} seconds from now`);
  }
  const body = typeof input.body === "string" ? Buffer.from(input.body, "utf8") : Buffer.from(input.body);
  const expected = createHmac("sha256", input.secret).update(`${timestamp}.`).update(body).digest();
  const matches = signatures.some((hex) => {
    const given = Buffer.from(hex, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError("bad_signature", "No signature matches the body and secret");

  let event: unknown;
  try {
    event = JSON.parse(body.toString("utf8"));
  } catch {
    throw new WebhookVerificationError("malformed_body", "The body is not JSON");
  }
  const e = event as Partial<VerifiedWebhookEvent> | null;
  if (!e || typeof e.id !== "string" || typeof e.type !== "string" || typeof e.createdAt !== "string" || typeof e.data !== "object") {
    throw new WebhookVerificationError("malformed_body", "The body is not a webhook event envelope");
  }
  return e as VerifiedWebhookEvent;
}

/** Splits `t=<seconds>,v1=<hex>[,v1=<hex>...]`; unknown schemes are ignored. */
export function parseSignatureHeader(header: string | string[] | null | undefined): { timestamp: number; signatures: string[] } {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) throw new WebhookVerificationError("malformed_header", "The service-signature header is missing");
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) throw new WebhookVerificationError("malformed_header", "The service-signature header is not of the form t=...,v1=...");
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(val)) throw new WebhookVerificationError("malformed_header", "The signature timestamp is not a Unix time in seconds");
      timestamp = Number(val);
    } else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/i.test(val)) throw new WebhookVerificationError("malformed_header", "A v1 signature is not 64 hex characters");
      signatures.push(val);
    }
  }
  if (timestamp === undefined) throw new WebhookVerificationError("malformed_header", "The service-signature header has no t= timestamp");
  if (!signatures.length) throw new WebhookVerificationError("malformed_header", "The service-signature header has no v1= signature");
  return { timestamp, signatures };
}
