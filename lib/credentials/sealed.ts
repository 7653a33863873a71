import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getCredentialKeyRing, type CredentialKeyRing } from "./keys";

/**
 * Stored secrets (platform tokens, storage keys): AES-256-GCM, sealed as
 * `c1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url). `context` (e.g. the owning row's id) is bound
 * as associated data, so a ciphertext copied to another row does not open there. The key id lets
 * a rotated key keep opening what older keys sealed; `open` says when to seal again with the current key.
 */
export function seal(plaintext: string, context: string, ring: CredentialKeyRing = getCredentialKeyRing()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.current.key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["c1", ring.current.id, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

export class UnreadableCredentials extends Error {
  constructor(reason: string) {
    super(`Stored credentials cannot be read: ${reason}`);
    this.name = "UnreadableCredentials";
  }
}

/** Opens what `seal` produced. `stale` is true when an earlier key sealed it (seal it again). */
export function open(sealed: string, context: string, ring: CredentialKeyRing = getCredentialKeyRing()): { plaintext: string; stale: boolean } {
  const [version, keyId, iv, tag, data] = sealed.split(".");
  if (version !== "c1" || !keyId || !iv || !tag || data === undefined) throw new UnreadableCredentials("not a sealed value");
  const key = ring.byId.get(keyId);
  if (!key) throw new UnreadableCredentials(`sealed with key ${keyId}, which is neither CREDENTIALS_KEY nor in CREDENTIALS_KEY_PREVIOUS`);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    const plaintext = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    return { plaintext, stale: keyId !== ring.current.id };
  } catch {
    throw new UnreadableCredentials("it was altered or belongs to another record");
  }
}

/** The key id a sealed value names (for the rotation command's count). */
export function sealedKeyId(sealed: string): string | undefined {
  return sealed.split(".")[1];
}

export interface ResealCount {
  checked: number;
  resealed: number;
  /** Ids of the rows whose ciphertext no key of the ring opens (left as they are). */
  unreadable: string[];
}

/**
 * Seals again with the current key each ciphertext an earlier key sealed (after a rotation, before
 * CREDENTIALS_KEY_PREVIOUS is dropped). `replace` writes the new ciphertext only where the row still holds the
 * old one (a conditional update), answering how many rows it changed; unreadable ones are named, not changed.
 */
export async function resealEach(
  rows: { id: string; sealed: string }[],
  contextOf: (id: string) => string,
  replace: (id: string, from: string, to: string) => Promise<number>,
  ring: CredentialKeyRing = getCredentialKeyRing(),
): Promise<ResealCount> {
  let resealed = 0;
  const unreadable: string[] = [];
  for (const row of rows) {
    try {
      const opened = open(row.sealed, contextOf(row.id), ring);
      if (opened.stale) resealed += await replace(row.id, row.sealed, seal(opened.plaintext, contextOf(row.id), ring));
    } catch (err) {
      if (!(err instanceof UnreadableCredentials)) throw err;
      unreadable.push(row.id);
    }
  }
  return { checked: rows.length, resealed, unreadable };
}
