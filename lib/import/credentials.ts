import { getCredentialKeyRing } from "@/lib/credentials/keys";
import { open, seal, UnreadableCredentials } from "@/lib/credentials/sealed";
import { getDb } from "@/lib/db/client";

/**
 * Seals every storage connection's secrets still sealed by an earlier key with the current one
 * (`admin credentials reseal`, after a CREDENTIALS_KEY rotation). A connection's secrets are
 * sealed with its id as associated data. Unreadable ones are listed, not changed; a row changed
 * meanwhile (a token refresh sealed it anew) is left as it is.
 */
export async function resealStorageCredentials(): Promise<{ checked: number; resealed: number; unreadable: string[] }> {
  const db = getDb();
  const ring = getCredentialKeyRing();
  const rows = await db.storageConnection.findMany({ where: { credentialsCiphertext: { not: null } }, select: { id: true, credentialsCiphertext: true } });
  let resealed = 0;
  const unreadable: string[] = [];
  for (const row of rows) {
    try {
      const opened = open(row.credentialsCiphertext!, row.id, ring);
      if (!opened.stale) continue;
      const { count } = await db.storageConnection.updateMany({
        where: { id: row.id, credentialsCiphertext: row.credentialsCiphertext },
        data: { credentialsCiphertext: seal(opened.plaintext, row.id, ring) },
      });
      resealed += count;
    } catch (err) {
      if (!(err instanceof UnreadableCredentials)) throw err;
      unreadable.push(row.id);
    }
  }
  return { checked: rows.length, resealed, unreadable };
}
