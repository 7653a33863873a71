import { revokeKeysCreatedBy } from "@/lib/api-keys/api-keys";
import type { Prisma } from "@/lib/generated/prisma/client";
import { revokeGrantsOfUser } from "@/lib/oauth/tokens";
import { turnOffTwoFactor } from "./two-factor";

/**
 * What a takeover's undoing revoked: API keys the user had created, app (OAuth) connections they had granted, and
 * two-factor when it was on. The reset's security event stores the two counts; two-factor going off is an event of its
 * own (`two_factor_off`), so `twoFactor` is absent from what a stored event reads back.
 */
export interface RevokedAccess {
  apiKeys: number;
  appConnections: number;
  twoFactor?: boolean;
}

/**
 * Revokes, in the caller's transaction, what acts as the user without a session: every API key they created (in any
 * workspace) and every app connection they granted, with its tokens; and turns two-factor off, since the authenticator
 * may be the stranger's and would keep the owner out of the account the reset gives back. Called when a password reset
 * proves an address nobody had proven while the account had a password: whoever held that password may have been a
 * stranger who signed up with the address, and what they made would outlive the reset that ended their sessions
 * (docs/decisions.md, "Email verification"). Members they added stay: those are other people's accounts. Call `notify`
 * once the transaction has committed (the two-factor notice).
 */
export async function revokeAccessMadeBeforeConfirmation(
  tx: Prisma.TransactionClient,
  userId: string,
): Promise<{ revoked: RevokedAccess; notify: () => Promise<void> }> {
  const apiKeys = await revokeKeysCreatedBy(tx, userId);
  const appConnections = await revokeGrantsOfUser(tx, userId);
  // By the user: whoever opened the mailed link, from their browser.
  const twoFactor = await turnOffTwoFactor(tx, userId, "user");
  return { revoked: { apiKeys, appConnections, twoFactor: twoFactor.wasOn }, notify: twoFactor.notify };
}

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "1 API key, 2 app connections and two-factor authentication" (a zero count, or two-factor that was off, left out). */
export function revokedAccessInWords(revoked: RevokedAccess): string {
  const parts = [
    revoked.apiKeys && counted(revoked.apiKeys, "API key"),
    revoked.appConnections && counted(revoked.appConnections, "app connection"),
    revoked.twoFactor && "two-factor authentication",
  ].filter((part): part is string => !!part);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "");
}
