import { createHmac } from "node:crypto";
import type { Platform } from "@/lib/generated/prisma/enums";
import { getConfig } from "@/lib/services";
import { PlatformError } from "../types";
import { callPlatform } from "./wire";

/**
 * Each platform's authorization flow for connecting accounts from the dashboard: the URL the
 * browser is sent to (built from PLATFORM_A_APP_ID / PLATFORM_B_APP_ID), and the exchange of the
 * code the platform sends back for an access token and the accounts it reaches.
 */

/** The app id, or null when the operator has not configured the platform's app. */
export function oauthAppId(platform: Platform): string | null {
  const p = getConfig().platforms;
  return (platform === "platform_a" ? p.platformA.appId : p.platformB.appId) ?? null;
}

function appOrThrow(platform: Platform): { appId: string; appSecret: string } {
  const p = platform === "platform_a" ? getConfig().platforms.platformA : getConfig().platforms.platformB;
  const env = platform === "platform_a" ? "PLATFORM_A" : "PLATFORM_B";
  if (!p.appId || !p.appSecret)
    throw new PlatformError("not_connected", `${env}_APP_ID and ${env}_APP_SECRET are not configured, so ${platform} accounts cannot be connected by OAuth`, {
      retryable: false,
    });
  return { appId: p.appId, appSecret: p.appSecret };
}

/** Where the browser goes to authorize the app (Meta's OAuth dialog; TikTok's advertiser authorization page). */
export function authorizeUrl(platform: Platform, options: { state: string; redirectUri: string }): string {
  const { appId } = appOrThrow(platform);
  if (platform === "platform_a") {
    const url = new URL(`https://www.facebook.com/${getConfig().platforms.platformA.apiVersion}/dialog/oauth`);
    url.searchParams.set("client_id", appId);
    url.searchParams.set("redirect_uri", options.redirectUri);
    url.searchParams.set("state", options.state);
    url.searchParams.set("scope", "ads_management,ads_read,business_management,pages_show_list,leads_retrieval,pages_manage_engagement");
    url.searchParams.set("response_type", "code");
    return url.toString();
  }
  const url = new URL("https://business-api.tiktok.com/portal/auth");
  url.searchParams.set("app_id", appId);
  url.searchParams.set("state", options.state);
  url.searchParams.set("redirect_uri", options.redirectUri);
  return url.toString();
}

/** The token the code is worth and the ad accounts (platform ids) it may reach. */
export async function exchangeAuthorization(
  platform: Platform,
  options: { code: string; redirectUri: string },
): Promise<{ accessToken: string; accountIds: string[] }> {
  const { appId, appSecret } = appOrThrow(platform);
  if (platform === "platform_a") {
    const { apiUrl, apiVersion } = getConfig().platforms.platformA;
    const tokenUrl = new URL(`${apiUrl}/${apiVersion}/oauth/access_token`);
    for (const [k, v] of Object.entries({ client_id: appId, client_secret: appSecret, redirect_uri: options.redirectUri, code: options.code }))
      tokenUrl.searchParams.set(k, v);
    const token = await callPlatform("platform_a", tokenUrl.toString());
    const accessToken = token.body?.access_token;
    if (token.status !== 200 || typeof accessToken !== "string") {
      throw new PlatformError("not_connected", `platform_a did not accept the authorization: ${token.body?.error?.message ?? `HTTP ${token.status}`}`, {
        retryable: false,
        authRefused: true,
      });
    }
    const accountsUrl = new URL(`${apiUrl}/${apiVersion}/me/adaccounts`);
    accountsUrl.searchParams.set("fields", "account_id,name");
    accountsUrl.searchParams.set("access_token", accessToken);
    accountsUrl.searchParams.set("appsecret_proof", createHmac("sha256", appSecret).update(accessToken).digest("hex"));
    const accounts = await callPlatform("platform_a", accountsUrl.toString());
    if (accounts.status !== 200)
      throw new PlatformError("upstream_error", `platform_a did not list the ad accounts: ${accounts.body?.error?.message ?? `HTTP ${accounts.status}`}`, {
        retryable: false,
      });
    const ids = (accounts.body?.data ?? []).map((a: any) => String(a.id ?? `act_${a.account_id}`)).filter((id: string) => /^act_\d+$/.test(id));
    return { accessToken, accountIds: ids };
  }
  const { apiUrl } = getConfig().platforms.platformB;
  const res = await callPlatform("platform_b", `${apiUrl}/open_api/v1.3/oauth2/access_token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ app_id: appId, secret: appSecret, auth_code: options.code }),
  });
  const data = res.body?.data;
  if (res.status !== 200 || Number(res.body?.code) !== 0 || typeof data?.access_token !== "string") {
    throw new PlatformError("not_connected", `platform_b did not accept the authorization: ${res.body?.message ?? `HTTP ${res.status}`}`, {
      retryable: false,
      authRefused: true,
    });
  }
  return { accessToken: data.access_token, accountIds: (data.advertiser_ids ?? []).map(String).filter((id: string) => /^\d+$/.test(id)) };
}
