import { createHash, randomBytes } from "node:crypto";

/** Every key starts with this, so leaked keys are recognisable by secret scanners. */
export const API_KEY_PREFIX = "adl_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function generateApiKeySecret(): string {
  const bytes = randomBytes(32);
  let body = "";
  for (const b of bytes) body += BASE62[b % 62];
  return API_KEY_PREFIX + body;
}

export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** The form shown in lists: the prefix, a few leading and the last four characters. */
export function displayApiKey(secret: string): string {
  return `${secret.slice(0, API_KEY_PREFIX.length + 4)}…${secret.slice(-4)}`;
}
