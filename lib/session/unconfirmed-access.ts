import { revokeKeysCreatedBy } from "@/lib/api-keys/api-keys";
import type { Prisma } from "@/lib/generated/prisma/client";
import { revokeGrantsOfUser } from "@/lib/oauth/tokens";

/** What a takeover's undoing revoked: API keys the user had created, app (OAuth) connections they had granted. */
export interface RevokedAccess {
  apiKeys: number;
  appConnections: number;
}

/**
 * Revokes, in the caller's transaction, what acts as the user without a session: every API key they created (in any
 * workspace) and every app connection they granted, with its tokens. Called when a password reset proves an address
 * nobody had proven while the account had a password: whoever held that password may have been a stranger who signed
 * up with the address, and what they made would outlive the reset that ended their sessions (docs/decisions.md,
 * "Email verification"). Members they added stay: those are other people's accounts.
 */
export async function revokeAccessMadeBeforeConfirmation(tx: Prisma.TransactionClient, userId: string): Promise<RevokedAccess> {
  const apiKeys = await revokeKeysCreatedBy(tx, userId);
  const appConnections = await revokeGrantsOfUser(tx, userId);
  return { apiKeys, appConnections };
}

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "1 API key and 2 app connections" (a zero count left out). */
export function revokedAccessInWords(revoked: RevokedAccess): string {
  const parts = [revoked.apiKeys && counted(revoked.apiKeys, "API key"), revoked.appConnections && counted(revoked.appConnections, "app connection")];
  return parts.filter(Boolean).join(" and ");
}
