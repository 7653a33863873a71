import { createHash, createHmac } from "node:crypto";
import { getAuthSecret } from "@/lib/session/secret";

/**
 * A review link's token: an HMAC of the link's id under the server's secret (256 bits, base64url, with a
 * readable prefix). The database keeps only its SHA-256, yet those who may manage the link can be shown
 * it again: it is derived, not stored. Links made before (random tokens) or before a secret change no
 * longer match their derivation, and are simply not copyable again.
 */
export function linkTokenFor(linkId: string): string {
  return `rvl_${createHmac("sha256", getAuthSecret()).update(`review-link-token\n${linkId}`).digest("base64url")}`;
}

/** The link's token when it can be derived again (see linkTokenFor), else null. */
export function recoverLinkToken(link: { id: string; tokenHash: string }): string | null {
  const token = linkTokenFor(link.id);
  return hashLinkToken(token) === link.tokenHash ? token : null;
}

/** What the database keeps of a token. */
export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Tokens are only ever of our own shape; anything else is not looked up. */
export function isWellFormedToken(token: string): boolean {
  return /^rvl_[A-Za-z0-9_-]{43}$/.test(token);
}
