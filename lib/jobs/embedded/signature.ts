import { createHmac } from "node:crypto";
import { canonicalJson } from "@/lib/json/canonical-json";

export { canonicalJson };

/**
 * Signs executor requests the way the SDK's serve handler verifies them:
 * HMAC-SHA256 keyed with the signing key minus its `signkey-<env>-` prefix, over the
 * canonical JSON of the body followed by the unix timestamp; sent as `t=<ts>&s=<hex>`.
 */
export const SIGNATURE_HEADER = "X-Inngest-Signature";

/** The signature header value for a canonical body. */
export function signBody(canonicalBody: string, signingKey: string, now = new Date()): string {
  const ts = Math.floor(now.getTime() / 1000).toString();
  const key = signingKey.replace(/^signkey-\w+-/, "");
  const mac = createHmac("sha256", key).update(canonicalBody).update(ts).digest("hex");
  return `t=${ts}&s=${mac}`;
}
