import type { Platform } from "@/lib/generated/prisma/enums";
import { getConfig } from "@/lib/services";
import { PlatformError } from "../types";
import { exchangeMetaAuthorization, metaDialogUrl } from "./platform-a/oauth";
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
    const { apiVersion, authorizeUrl: dialogUrl } = getConfig().platforms.platformA;
    return metaDialogUrl({ apiVersion, dialogUrl, appId, redirectUri: options.redirectUri, state: options.state });
  }
  const url = new URL(getConfig().platforms.platformB.authorizeUrl);
  url.searchParams.set("app_id", appId);
  url.searchParams.set("state", options.state);
  url.searchParams.set("redirect_uri", options.redirectUri);
  return url.toString();
}

/** The token the code is worth and the ad accounts (platform ids) it may reach. */
export async function exchangeAuthorization(
  platform: Platform,
  options: { code: string; redirectUri: string },
): Promise<{
  accessToken: string;
  accounts: AuthorizedCandidate[];
  /** Pages the person granted (platform_a): the ads' identity. Empty on platform_b. */
  pages: AuthorizedCandidate[];
}> {
  const { appId, appSecret } = appOrThrow(platform);
  if (platform === "platform_a") return exchangeMetaAuthorization({ appId, appSecret, code: options.code, redirectUri: options.redirectUri });
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
  const ids: string[] = (data.advertiser_ids ?? []).map(String).filter((id: string) => /^\d+$/.test(id));
  return { accessToken: data.access_token, accounts: await advertiserNames(appId, appSecret, data.access_token, ids), pages: [] };
}

export interface AuthorizedCandidate {
  id: string;
  name: string;
}

/** The authorized advertisers' names (`oauth2/advertiser/get/`); their ids alone when TikTok does not answer. */
async function advertiserNames(appId: string, appSecret: string, accessToken: string, ids: string[]): Promise<AuthorizedCandidate[]> {
  if (ids.length < 2) return ids.map((id) => ({ id, name: id }));
  const { apiUrl } = getConfig().platforms.platformB;
  const url = new URL(`${apiUrl}/open_api/v1.3/oauth2/advertiser/get/`);
  url.searchParams.set("app_id", appId);
  url.searchParams.set("secret", appSecret);
  const res = await callPlatform("platform_b", url.toString(), { headers: { "Access-Token": accessToken } }).catch(() => null);
  const names = new Map<string, string>();
  for (const a of res?.body?.data?.list ?? []) names.set(String(a.advertiser_id), String(a.advertiser_name ?? a.advertiser_id));
  return ids.map((id) => ({ id, name: names.get(id) ?? id }));
}
