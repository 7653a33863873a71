import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Small local stand-ins for the live platforms' wire format (only what the adapters call so far),
 * after the providers' published references: Meta's Graph API (platform_a) and TikTok's API for
 * Business (platform_b). Tests point PLATFORM_A_API_URL / PLATFORM_B_API_URL at them.
 */
export interface FakeRequest {
  /** The JSON body of a POST, parsed. */
  body?: unknown;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export interface PlatformFake {
  url: string;
  requests: FakeRequest[];
  /** Tokens the platform accepts, and the accounts each may read. */
  grant(token: string, accountIds: string[]): void;
  /** The platform stops accepting the token (expired, revoked). */
  revoke(token: string): void;
  close(): Promise<void>;
}

async function listen(
  handler: (req: FakeRequest, res: http.ServerResponse) => void,
): Promise<{ url: string; requests: FakeRequest[]; close: () => Promise<void> }> {
  const requests: FakeRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: unknown;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      } catch {
        body = undefined;
      }
      const request: FakeRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body };
      requests.push(request);
      handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

/**
 * Graph API: GET /{version}/act_<id>?fields=...&access_token=...(&appsecret_proof=...). An unknown
 * or revoked token answers 400 OAuthException code 190; a wrong appsecret_proof code 100 (as Graph does).
 */
export async function fakeGraphApi(options: {
  version: string;
  appSecret?: string;
  accounts: Record<string, { name: string; currency: string; timezone_name: string; account_status: number }>;
  /** The Login dialog's code this app may exchange, and the token and accounts it is worth. */
  oauth?: { appId: string; code: string; token: string; accountIds: string[] };
}): Promise<PlatformFake> {
  const tokens = new Map<string, Set<string>>();
  const server = await listen((req, res) => {
    const v = `/${options.version}`;
    if (options.oauth && req.path === `${v}/oauth/access_token` && req.query.get("grant_type") === "fb_exchange_token") {
      // The long-lived token exchange (Facebook Login): the short-lived token for one of ~60 days.
      const granted = tokens.get(req.query.get("fb_exchange_token") ?? "");
      if (req.query.get("client_id") !== options.oauth.appId || req.query.get("client_secret") !== options.appSecret || !granted)
        return json(res, 400, {
          error: { message: "Error validating access token: Session has expired.", type: "OAuthException", code: 190, error_subcode: 463 },
        });
      const long = `${req.query.get("fb_exchange_token")}-long`;
      tokens.set(long, granted);
      return json(res, 200, { access_token: long, token_type: "bearer", expires_in: 5183944 });
    }
    if (options.oauth && req.path === `${v}/oauth/access_token`) {
      const o = options.oauth;
      if (
        req.query.get("client_id") !== o.appId ||
        req.query.get("client_secret") !== options.appSecret ||
        req.query.get("code") !== o.code ||
        !req.query.get("redirect_uri")
      ) {
        return json(res, 400, { error: { message: "Invalid verification code format.", type: "OAuthException", code: 100 } });
      }
      tokens.set(o.token, new Set(o.accountIds));
      return json(res, 200, { access_token: o.token, token_type: "bearer", expires_in: 5183944 });
    }
    if (req.path === `${v}/me/adaccounts`) {
      const granted = tokens.get(req.query.get("access_token") ?? "");
      if (!granted) return json(res, 400, { error: { message: "Invalid OAuth access token.", type: "OAuthException", code: 190 } });
      return json(res, 200, { data: [...granted].map((id) => ({ id, account_id: id.slice(4) })), paging: {} });
    }
    if (req.path === `${v}/me/accounts`) {
      if (!tokens.has(req.query.get("access_token") ?? ""))
        return json(res, 400, { error: { message: "Invalid OAuth access token.", type: "OAuthException", code: 190 } });
      return json(res, 200, { data: [], paging: {} });
    }
    const match = new RegExp(`^/${options.version.replace(".", "\\.")}/(act_\\d+)$`).exec(req.path);
    if (!match || req.method !== "GET") return json(res, 400, { error: { message: "Unsupported get request.", type: "GraphMethodException", code: 100 } });
    const token = req.query.get("access_token") ?? "";
    if (!tokens.has(token)) {
      return json(res, 400, {
        error: { message: "Error validating access token: Session has expired.", type: "OAuthException", code: 190, error_subcode: 463, fbtrace_id: "Afake" },
      });
    }
    if (options.appSecret && req.query.get("appsecret_proof") !== createHmac("sha256", options.appSecret).update(token).digest("hex")) {
      return json(res, 400, { error: { message: "Invalid appsecret_proof provided in the API argument", type: "GraphMethodException", code: 100 } });
    }
    const account = options.accounts[match[1]!];
    if (!account || !tokens.get(token)!.has(match[1]!)) {
      return json(res, 400, {
        error: { message: `Unsupported get request. Object with ID '${match[1]}' does not exist`, type: "GraphMethodException", code: 100, error_subcode: 33 },
      });
    }
    const fields = (req.query.get("fields") ?? "").split(",");
    json(res, 200, { id: match[1], ...Object.fromEntries(Object.entries(account).filter(([k]) => fields.includes(k))) });
  });
  return {
    ...server,
    grant: (token, ids) => tokens.set(token, new Set(ids)),
    revoke: (token) => tokens.delete(token),
  };
}

/**
 * API for Business: GET /open_api/v1.3/advertiser/info/?advertiser_ids=["id"] with header
 * Access-Token; always HTTP 200 with { code, message, request_id, data }. An unknown or revoked
 * token answers code 40105; an advertiser the token was not granted, code 40001.
 */
export async function fakeBusinessApi(options: {
  advertisers: Record<string, { name: string; currency: string; timezone: string; display_timezone?: string; status: string }>;
  /** The authorization's auth_code this app may exchange (POST oauth2/access_token/), and what it is worth. */
  oauth?: { appId: string; secret: string; code: string; token: string; advertiserIds: string[] };
}): Promise<PlatformFake> {
  const tokens = new Map<string, Set<string>>();
  let n = 0;
  const server = await listen((req, res) => {
    const request_id = `req${++n}`;
    if (options.oauth && req.path === "/open_api/v1.3/oauth2/access_token/" && req.method === "POST") {
      const o = options.oauth;
      const b = req.body as any;
      if (b?.app_id !== o.appId || b?.secret !== o.secret || b?.auth_code !== o.code)
        return json(res, 200, { code: 40110, message: "Invalid auth_code.", request_id, data: {} });
      tokens.set(o.token, new Set(o.advertiserIds));
      return json(res, 200, { code: 0, message: "OK", request_id, data: { access_token: o.token, advertiser_ids: o.advertiserIds, scope: [4, 5] } });
    }
    if (req.path !== "/open_api/v1.3/advertiser/info/" || req.method !== "GET")
      return json(res, 404, { code: 40400, message: "Not found", request_id, data: {} });
    const token = String(req.headers["access-token"] ?? "");
    if (!tokens.has(token)) return json(res, 200, { code: 40105, message: "The access token is invalid or has been revoked.", request_id, data: {} });
    let ids: string[];
    try {
      ids = JSON.parse(req.query.get("advertiser_ids") ?? "");
    } catch {
      return json(res, 200, { code: 40002, message: "advertiser_ids: Not a valid list.", request_id, data: {} });
    }
    if (ids.some((id) => !tokens.get(token)!.has(id)))
      return json(res, 200, { code: 40001, message: "No permission to operate advertiser.", request_id, data: {} });
    json(res, 200, {
      code: 0,
      message: "OK",
      request_id,
      data: { list: ids.filter((id) => options.advertisers[id]).map((id) => ({ advertiser_id: id, ...options.advertisers[id] })) },
    });
  });
  return {
    ...server,
    grant: (token, ids) => tokens.set(token, new Set(ids)),
    revoke: (token) => tokens.delete(token),
  };
}
