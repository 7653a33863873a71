import { createHash, randomBytes } from "node:crypto";

/** A review-link token: 32 random bytes (256 bits), base64url, with a readable prefix. Shown once. */
export function newLinkToken(): string {
  return `rvl_${randomBytes(32).toString("base64url")}`;
}

/** What the database keeps of a token. */
export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Tokens are only ever of our own shape; anything else is not looked up. */
export function isWellFormedToken(token: string): boolean {
  return /^rvl_[A-Za-z0-9_-]{43}$/.test(token);
}
