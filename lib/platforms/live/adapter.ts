import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { markNeedsReconnect, reconnectHint } from "../accounts";
import type { AdsApi } from "../ads-types";
import { PlatformError, type AdAccountRef, type PlatformAdapter } from "../types";
import { loadSealedAccountCredentials } from "./credentials";
import { readPlatformAAccount } from "./platform-a";
import { readPlatformBAdvertiser } from "./platform-b";

/** Every AdsApi method, for adapters that answer each one alike (refusals). */
const ADS_API_METHODS = [
  "getAccount",
  "createCampaign",
  "updateCampaign",
  "createAdSet",
  "updateAdSet",
  "createAd",
  "updateAd",
  "listAudiences",
  "searchLocations",
  "getDailyInsights",
  "listComments",
  "setCommentHidden",
  "replyToComment",
  "deleteComment",
  "listLeadForms",
  "listLeadSubmissions",
] as const satisfies readonly (keyof AdsApi)[];

/** The not_connected answer for an account that is not active: what happened and how to reconnect. */
export function accountNotConnected(account: AdAccountRef, reason?: string | null): PlatformError {
  const what =
    account.status === "disconnected"
      ? `Ad account ${account.externalAccountId} (${account.platform}) was disconnected.`
      : `Ad account ${account.externalAccountId} (${account.platform}) needs to be reconnected: ${reason ?? account.statusReason ?? "the platform refused its access token"}.`;
  return new PlatformError("not_connected", `${what} ${reconnectHint(account)}`, { retryable: false });
}

/** An adapter whose every call refuses with `error` before reaching any platform. */
export function refusingAdapter(platform: Platform, mode: "sandbox" | "live", error: () => PlatformError): PlatformAdapter {
  const refuse = async () => {
    throw error();
  };
  return Object.assign({ platform, mode, pushMedia: refuse }, Object.fromEntries(ADS_API_METHODS.map((m) => [m, refuse]))) as unknown as PlatformAdapter;
}

/**
 * Runs a call with the live account's opened token. A token the platform refuses moves the account
 * to `needs_reconnect` and answers not_connected (every later call answers it at once, see adapterFor).
 */
export async function withAccountToken<T>(account: AdAccountRef, call: (token: string) => Promise<T>): Promise<T> {
  let sealed: string | undefined;
  try {
    const loaded = await loadSealedAccountCredentials(account);
    sealed = loaded.sealed;
    return await call(loaded.credentials.accessToken);
  } catch (err) {
    if (err instanceof PlatformError && err.authRefused) {
      if (!(await markNeedsReconnect(account.id, err.message, sealed)) && sealed) {
        // The token refused is no longer the stored one: the account was reconnected (or disconnected) meanwhile.
        const now = await getDb().adAccount.findUnique({ where: { id: account.id }, select: { status: true, credentialsCiphertext: true } });
        if (now?.status === "active" && now.credentialsCiphertext !== sealed) {
          throw new PlatformError(
            "upstream_error",
            `Ad account ${account.externalAccountId} (${account.platform}) was reconnected while this call ran; try again`,
            {
              retryable: true,
            },
          );
        }
        if (now && now.status !== "active") throw accountNotConnected({ ...account, status: now.status }, err.message);
      }
      throw accountNotConnected({ ...account, status: "needs_reconnect" }, err.message);
    }
    throw err;
  }
}

/** Reads a live account with a token not stored yet (connecting): the platform's answer, or its refusal. */
export function readLiveAccount(platform: Platform, externalAccountId: string, token: string) {
  return platform === "platform_a" ? readPlatformAAccount(externalAccountId, token) : readPlatformBAdvertiser(externalAccountId, token);
}
