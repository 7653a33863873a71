import { createHmac } from "node:crypto";
import { getConfig } from "@/lib/services";
import { PlatformError } from "../types";
import { callPlatform, type LiveAccountReadout } from "./wire";

/**
 * platform_a speaks Meta's Marketing API (Graph API): `{PLATFORM_A_API_URL}/{PLATFORM_A_API_VERSION}/...`,
 * the token as `access_token`, and with PLATFORM_A_APP_SECRET set every call carries
 * `appsecret_proof` = HMAC-SHA256 of the token keyed by the app secret (hex).
 */
function graphUrl(path: string, token: string, params: Record<string, string> = {}): string {
  const { apiUrl, apiVersion, appSecret } = getConfig().platforms.platformA;
  const url = new URL(`${apiUrl}/${apiVersion}/${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  url.searchParams.set("access_token", token);
  if (appSecret) url.searchParams.set("appsecret_proof", createHmac("sha256", appSecret).update(token).digest("hex"));
  return url.toString();
}

// Graph error codes (error.code): 190 invalid/expired token, 102 session, 10 and 200-299 permission
// missing; 4, 17, 32, 613 and 80000-80014 rate limits; 100 invalid parameter (e.g. no such account).
function graphError(status: number, body: any): PlatformError {
  const error = body?.error ?? {};
  const code = Number(error.code);
  const message = `platform_a refused the call: ${error.message ?? `HTTP ${status}`}${Number.isFinite(code) ? ` (code ${code})` : ""}`;
  if (code === 190 || code === 102 || code === 10 || (code >= 200 && code <= 299) || status === 401) {
    return new PlatformError("not_connected", message, { retryable: false, authRefused: true });
  }
  if ([4, 17, 32, 613].includes(code) || (code >= 80000 && code <= 80014) || status === 429)
    return new PlatformError("upstream_busy", message, { retryable: true, retryAfterSeconds: 60 });
  if (code === 100 || status === 404) return new PlatformError("invalid_input", message, { retryable: false });
  return new PlatformError("upstream_error", message, { retryable: status >= 500 || error.is_transient === true });
}

// AdAccount.account_status: 1 active, 2 disabled, 3 unsettled, 7 pending risk review, 8 pending
// settlement, 9 in grace period, 100 pending closure, 101 closed.
function accountStatus(value: number): LiveAccountReadout["status"] {
  if (value === 1 || value === 9) return "active";
  if (value === 3 || value === 7 || value === 8) return "pending_settlement";
  return "disabled";
}

/** Reads the ad account (`act_<digits>`) with the token: GET /act_<id>?fields=name,currency,timezone_name,account_status. */
export async function readPlatformAAccount(externalAccountId: string, token: string): Promise<LiveAccountReadout> {
  const { status, body } = await callPlatform("platform_a", graphUrl(externalAccountId, token, { fields: "name,currency,timezone_name,account_status" }));
  if (status !== 200 || body?.error) throw graphError(status, body);
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
