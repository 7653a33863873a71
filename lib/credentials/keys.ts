import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "@/lib/config";
import { defineService } from "@/lib/services";

/** One encryption key: its short id (stored beside each ciphertext) and the 32 bytes AES-256 uses. */
export interface CredentialKey {
  id: string;
  key: Buffer;
}

/** The current key (new ciphertexts) and every key still accepted for reading, by id. */
export interface CredentialKeyRing {
  current: CredentialKey;
  byId: ReadonlyMap<string, CredentialKey>;
}

/** The 32-byte key and its id derived from a configured secret of any form (base64, hex, passphrase). */
export function deriveKey(secret: string): CredentialKey {
  const key = createHash("sha256").update(`adloom:credentials:${secret}`).digest();
  const id = createHash("sha256").update(key).digest("hex").slice(0, 8);
  return { id, key };
}

export function keyRingFrom(current: string, previous: string[] = []): CredentialKeyRing {
  const currentKey = deriveKey(current);
  const byId = new Map<string, CredentialKey>();
  for (const secret of previous) {
    const k = deriveKey(secret);
    byId.set(k.id, k);
  }
  byId.set(currentKey.id, currentKey);
  return { current: currentKey, byId };
}

/**
 * CREDENTIALS_KEY (and CREDENTIALS_KEY_PREVIOUS), or on the embedded database a key generated
 * once into DATA_DIR/secrets/credentials-key (mode 0600), so `npm start` needs no env file. With
 * DATABASE_URL several instances share the database, so the key must come from configuration.
 */
export const getCredentialKeyRing = defineService("credentials.key-ring", ({ config }) =>
  keyRingFrom(loadCurrentSecret(config), config.credentials.previousKeys),
);

function loadCurrentSecret(config: Config): string {
  if (config.credentials.key) return config.credentials.key;
  if (config.database.kind === "postgres") {
    throw new Error("CREDENTIALS_KEY: required with DATABASE_URL (the same value on every instance), e.g. openssl rand -base64 32");
  }
  const dir = path.join(config.dataDir, "secrets");
  const file = path.join(dir, "credentials-key");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    // "wx": only the first process to get here writes; the others read what it wrote.
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable key; restore it from a backup (deleting it loses every stored credential)`);
  return secret;
}
