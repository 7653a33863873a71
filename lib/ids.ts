import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** A random id with a readable prefix, e.g. `ws_3k9x...` (20 random base-36 characters, ~103 bits). */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % 36];
  return `${prefix}_${out}`;
}
