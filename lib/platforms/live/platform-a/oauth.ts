import { PlatformError } from "../../types";
import { graphGet, graphList } from "./graph";

/**
 * Facebook Login for Business for platform_a: the permissions the features need, the code exchange,
 * the long-lived token (`grant_type=fb_exchange_token`, about 60 days instead of 1-2 hours), then
 * the ad accounts (/me/adaccounts) and the Pages (/me/accounts) the person granted.
 */
export const META_SCOPES = [
  "ads_management", // create and change campaigns, ad sets, creatives, ads; upload media
  "ads_read", // insights
  "business_management", // ad accounts owned by a Business portfolio
  "pages_show_list", // list the Pages (/me/accounts) to pick the ads' identity
  "pages_read_engagement", // read the ads' posts and their comments
  "pages_manage_engagement", // hide, reply to and delete comments
  "pages_manage_ads", // lead ads on the Page
  "leads_retrieval", // read lead-form submissions
] as const;

async function tokenCall(params: Record<string, string>, what: string): Promise<string> {
  let body: any;
  try {
    body = await graphGet("oauth/access_token", "", params);
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    throw new PlatformError("not_connected", `platform_a did not accept the authorization (${what}): ${err.message}`, { retryable: false, authRefused: true });
  }
  if (typeof body?.access_token !== "string")
    throw new PlatformError("not_connected", `platform_a answered the ${what} without a token`, { retryable: false, authRefused: true });
  return body.access_token;
}

export async function exchangeMetaAuthorization(options: {
  appId: string;
  appSecret: string;
  code: string;
  redirectUri: string;
}): Promise<{ accessToken: string; accounts: { id: string; name: string }[]; pages: { id: string; name: string }[] }> {
  const shortLived = await tokenCall(
    { client_id: options.appId, client_secret: options.appSecret, redirect_uri: options.redirectUri, code: options.code },
    "code exchange",
  );
  const accessToken = await tokenCall(
    { grant_type: "fb_exchange_token", client_id: options.appId, client_secret: options.appSecret, fb_exchange_token: shortLived },
    "long-lived token exchange",
  );
  const accounts = await graphList("me/adaccounts", accessToken, { fields: "account_id,name" }, 500);
  const pages = await graphList("me/accounts", accessToken, { fields: "id,name,tasks" }, 500);
  return {
    accessToken,
    accounts: accounts.map((a) => ({ id: String(a.id ?? `act_${a.account_id}`), name: String(a.name ?? a.id ?? "") })).filter((a) => /^act_\d+$/.test(a.id)),
    pages: pages.map((p) => ({ id: String(p.id), name: String(p.name ?? p.id) })).filter((p) => /^\d+$/.test(p.id)),
  };
}

/** Meta's OAuth dialog URL (the dialog lives on www.facebook.com, not the Graph API host). */
export function metaDialogUrl(options: { apiVersion: string; dialogUrl?: string; appId: string; redirectUri: string; state: string }): string {
  const url = new URL(options.dialogUrl ?? `https://www.facebook.com/${options.apiVersion}/dialog/oauth`);
  url.searchParams.set("client_id", options.appId);
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("state", options.state);
  url.searchParams.set("scope", META_SCOPES.join(","));
  url.searchParams.set("response_type", "code");
  return url.toString();
}
