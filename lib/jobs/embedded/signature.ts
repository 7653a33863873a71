import { createHmac } from "node:crypto";

/**
 * Signs executor requests the way the SDK's serve handler verifies them:
 * HMAC-SHA256 keyed with the signing key minus its `signkey-<env>-` prefix, over the
 * canonical JSON of the body followed by the unix timestamp; sent as `t=<ts>&s=<hex>`.
 */
export const SIGNATURE_HEADER = "X-Inngest-Signature";

/** Canonical JSON (RFC 8785 style: sorted keys, no whitespace) of a JSON value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) return "null";
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}

/** The signature header value for a canonical body. */
export function signBody(canonicalBody: string, signingKey: string, now = new Date()): string {
  const ts = Math.floor(now.getTime() / 1000).toString();
  const key = signingKey.replace(/^signkey-\w+-/, "");
  const mac = createHmac("sha256", key).update(canonicalBody).update(ts).digest("hex");
  return `t=${ts}&s=${mac}`;
}
