import { getDb } from "@/lib/db/client";
import { open, type ResealCount, resealEach, seal, UnreadableCredentials } from "@/lib/credentials/sealed";
import { getCredentialKeyRing } from "@/lib/credentials/keys";
import { PlatformError, type AccountCredentials, type AdAccountRef } from "../types";

/** The associated data a live account's credentials are sealed with: they open only on their own row. */
const context = (accountId: string) => `ad_account:${accountId}`;

export function sealAccountCredentials(accountId: string, credentials: AccountCredentials): string {
  return seal(JSON.stringify(credentials), context(accountId));
}

/**
 * Opens a live account's credentials. Sealed by an earlier key (CREDENTIALS_KEY_PREVIOUS), they are
 * sealed again with the current one on the way (only if nobody changed them meanwhile), so a key
 * rotation completes as accounts are used; `admin credentials reseal` finishes it at once.
 */
export async function loadAccountCredentials(account: Pick<AdAccountRef, "id" | "platform" | "externalAccountId">): Promise<AccountCredentials> {
  return (await loadSealedAccountCredentials(account)).credentials;
}

/** The credentials and the sealed value they were read from (what a refusal of this token is checked against). */
export async function loadSealedAccountCredentials(
  account: Pick<AdAccountRef, "id" | "platform" | "externalAccountId">,
): Promise<{ credentials: AccountCredentials; sealed: string }> {
  const db = getDb();
  const row = await db.adAccount.findUnique({ where: { id: account.id }, select: { credentialsCiphertext: true } });
  if (!row?.credentialsCiphertext) {
    throw new PlatformError("not_connected", `Ad account ${account.externalAccountId} (${account.platform}) has no stored access token`, {
      retryable: false,
      authRefused: true,
    });
  }
  let opened: { plaintext: string; stale: boolean };
  try {
    opened = open(row.credentialsCiphertext, context(account.id));
  } catch (err) {
    if (!(err instanceof UnreadableCredentials)) throw err;
    throw new PlatformError("not_connected", `Ad account ${account.externalAccountId} (${account.platform}): ${err.message}`, {
      retryable: false,
      authRefused: true,
    });
  }
  const credentials = JSON.parse(opened.plaintext) as AccountCredentials;
  if (opened.stale) {
    const resealed = sealAccountCredentials(account.id, credentials);
    const { count } = await db.adAccount.updateMany({
      where: { id: account.id, credentialsCiphertext: row.credentialsCiphertext },
      data: { credentialsCiphertext: resealed },
    });
    if (count === 1) return { credentials, sealed: resealed };
  }
  return { credentials, sealed: row.credentialsCiphertext };
}

/**
 * Seals every stored credential still sealed by an earlier key with the current one (after a
 * rotation, before CREDENTIALS_KEY_PREVIOUS is dropped). Unreadable ones are counted, not changed.
 */
export async function resealAllCredentials(): Promise<{ keyId: string } & ResealCount> {
  const db = getDb();
  const rows = await db.adAccount.findMany({ where: { credentialsCiphertext: { not: null } }, select: { id: true, credentialsCiphertext: true } });
  const count = await resealEach(
    rows.map((r) => ({ id: r.id, sealed: r.credentialsCiphertext! })),
    context,
    async (id, from, to) => (await db.adAccount.updateMany({ where: { id, credentialsCiphertext: from }, data: { credentialsCiphertext: to } })).count,
  );
  return { keyId: getCredentialKeyRing().current.id, ...count };
}
