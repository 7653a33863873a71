import { createHmac, randomBytes } from "node:crypto";

export const SIGNATURE_HEADER = "service-signature";

/**
 * A new `service-signature` secret: `adlsig_` + 32 random bytes in base64url. The string itself (its
 * UTF-8 bytes) is the HMAC key, as the spec's scheme takes it, so it is NOT a Standard Webhooks
 * secret and does not carry that scheme's `whsec_` prefix: `standardWebhooksSecret()` gives that form.
 * Secrets made before 2026-11-25 (`whsec_` + base64url) are kept byte for byte: the string is the key
 * receivers verify with, and changing it would stop their verification without notice.
 */
export const SIGNING_SECRET_PREFIX = "adlsig_";
export function newSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** The hex HMAC-SHA256 of `${t}.${body}` keyed with the secret. */
export function computeSignature(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
}

/** The `service-signature` header value: `t=<unix seconds>,v1=<hex digest>`. */
export function signatureHeader(secret: string, body: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, body)}`;
}

/**
 * Standard Webhooks (standardwebhooks.com) headers, so that scheme's libraries verify our
 * deliveries as they are. Its HMAC key is the same key as `service-signature`'s: the bytes of
 * the endpoint secret string; `standardWebhooksSecret` writes those bytes in the scheme's
 * `whsec_<base64>` form, the string its libraries take.
 */
export const STANDARD_HEADERS = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" } as const;

export function standardWebhooksSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, "utf8").toString("base64")}`;
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. */
export function standardSignature(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  return `v1,${createHmac("sha256", secret).update(`${id}.${timestamp}.`).update(body).digest("base64")}`;
}

/** Every signature header of one delivery, both schemes signed at the same second. */
export function signatureHeaders(secret: string, eventId: string, body: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  return {
    [SIGNATURE_HEADER]: signatureHeader(secret, body, timestamp),
    [STANDARD_HEADERS.id]: eventId,
    [STANDARD_HEADERS.timestamp]: String(timestamp),
    [STANDARD_HEADERS.signature]: standardSignature(secret, eventId, timestamp, body),
  };
}
