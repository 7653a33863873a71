import { type ResealCount, resealEach } from "@/lib/credentials/sealed";
import { getDb } from "@/lib/db/client";

/**
 * Seals every storage connection's secrets still sealed by an earlier key with the current one
 * (`admin credentials reseal`, after a CREDENTIALS_KEY rotation). A connection's secrets are
 * sealed with its id as associated data. Unreadable ones are listed, not changed; a row changed
 * meanwhile (a token refresh sealed it anew) is left as it is.
 */
export async function resealStorageCredentials(): Promise<ResealCount> {
  const db = getDb();
  const rows = await db.storageConnection.findMany({ where: { credentialsCiphertext: { not: null } }, select: { id: true, credentialsCiphertext: true } });
  return resealEach(
    rows.map((r) => ({ id: r.id, sealed: r.credentialsCiphertext! })),
    (id) => id,
    async (id, from, to) => (await db.storageConnection.updateMany({ where: { id, credentialsCiphertext: from }, data: { credentialsCiphertext: to } })).count,
  );
}
