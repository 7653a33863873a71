import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getAuthSecret } from "./secret";

// AES-256-GCM with a key derived from AUTH_SECRET for one purpose only.
function key(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", getAuthSecret(), "adloom", `adloom:${purpose}`, 32));
}

/** Encrypts a short secret for storage: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function encryptAtRest(plaintext: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(purpose), iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** Decrypts what encryptAtRest produced; throws when it was tampered with or the secret changed. */
export function decryptAtRest(stored: string, purpose: string): string {
  const [version, iv, tag, data] = stored.split(".");
  if (version !== "v1" || !iv || !tag || !data) throw new Error("Unrecognised encrypted value");
  const decipher = createDecipheriv("aes-256-gcm", key(purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
