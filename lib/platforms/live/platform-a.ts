import { PlatformError } from "../types";
import { graphGet } from "./platform-a/graph";
import type { LiveAccountReadout } from "./wire";

// AdAccount.account_status: 1 active, 2 disabled, 3 unsettled, 7 pending risk review, 8 pending
// settlement, 9 in grace period, 100 pending closure, 101 closed.
function accountStatus(value: number): LiveAccountReadout["status"] {
  if (value === 1 || value === 9) return "active";
  if (value === 3 || value === 7 || value === 8) return "pending_settlement";
  return "disabled";
}

/** Reads the ad account (`act_<digits>`) with the token: GET /act_<id>?fields=name,currency,timezone_name,account_status. */
export async function readPlatformAAccount(externalAccountId: string, token: string): Promise<LiveAccountReadout> {
  const body = await graphGet(externalAccountId, token, { fields: "name,currency,timezone_name,account_status" });
  if (typeof body?.currency !== "string" || typeof body?.timezone_name !== "string") {
    throw new PlatformError("upstream_error", "platform_a answered the account read without currency or timezone_name", { retryable: false });
  }
  return {
    externalAccountId,
    name: typeof body.name === "string" ? body.name : externalAccountId,
    currency: body.currency,
    timeZone: body.timezone_name,
    status: accountStatus(Number(body.account_status)),
  };
}
