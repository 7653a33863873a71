/**
 * Verifies an Adloom webhook delivery on the receiving side with Web Crypto, so it runs
 * unchanged on Node 20+, Deno, Bun, edge runtimes and browsers:
 *
 *   const event = await verifyWebhook({ body: rawBody, header: request.headers.get("service-signature"), secret });
 */

export type WebhookVerificationCode = "malformed_header" | "bad_signature" | "stale_timestamp" | "malformed_body";

export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationCode;

  constructor(code: WebhookVerificationCode, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.code = code;
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
  body: string | Uint8Array | ArrayBuffer;
  /** The `service-signature` header. */
  header: string | string[] | null | undefined;
  /** The endpoint's service-signature secret (`secret`: adlsig_..., or whsec_... on endpoints made before 2026-11-25), not its Standard Webhooks form. */
  secret: string;
  /** Oldest accepted signature age, and most accepted clock skew, in seconds (default 300). */
  toleranceSeconds?: number | undefined;
  /** Current time in Unix seconds (tests). */
  now?: number | undefined;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

function bytesOf(body: VerifyWebhookInput["body"]): Uint8Array {
  if (typeof body === "string") return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Compares in time independent of where the first difference is. */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Checks the signature and timestamp, then parses the envelope; rejects with WebhookVerificationError. */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifiedWebhookEvent> {
  const { timestamp, signatures } = parseSignatureHeader(input.header);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError("stale_timestamp", `The signature timestamp is more than ${tolerance} seconds from now`);
  }
  const body = bytesOf(input.body);
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await globalThis.crypto.subtle.importKey("raw", encoder.encode(input.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const expected = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, signed));
  if (!signatures.some((hex) => equalBytes(hexToBytes(hex), expected))) {
    throw new WebhookVerificationError("bad_signature", "No signature matches the body and secret");
  }

  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(body));
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
