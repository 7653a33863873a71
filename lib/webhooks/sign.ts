import { createHmac, randomBytes } from "node:crypto";

export const SIGNATURE_HEADER = "service-signature";

/** A new signing secret: `whsec_` + 32 random bytes in base64url. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The hex HMAC-SHA256 of `${t}.${body}` keyed with the secret. */
export function computeSignature(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
}

/** The `service-signature` header value: `t=<unix seconds>,v1=<hex digest>`. */
export function signatureHeader(secret: string, body: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, body)}`;
}
