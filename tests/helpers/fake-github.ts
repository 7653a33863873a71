import { randomBytes } from "node:crypto";
import type http from "node:http";
import { json, listen, pkceVerifies, type SeenRequest } from "./storage-fakes";

/**
 * A local stand-in for GitHub's OAuth app web application flow and the two REST calls sign-in makes, written from
 * GitHub's published references ("Authorizing OAuth apps", "Troubleshooting OAuth app access token request errors",
 * REST "Users" and "Emails"):
 * - GET /login/oauth/authorize: client_id required; redirect_uri must lie under the registered callback URL; scope,
 *   state, and PKCE's code_challenge (S256 only) are kept with the code; the person agrees at once and is sent back
 *   with `code` (and `state` when one was sent);
 * - POST /login/oauth/access_token: client_id and client_secret (form or HTTP Basic), code, redirect_uri (the same as
 *   the authorization's), code_verifier when a challenge was sent; answers JSON when Accept asks for it, else
 *   form-encoded, and its errors (incorrect_client_credentials, redirect_uri_mismatch, bad_verification_code) with
 *   status 200 as GitHub does;
 * - GET /user and /user/emails on the API host: a bearer (or `token`) access token and a User-Agent are required;
 *   /user/emails needs the `user:email` (or `user`) scope.
 * Tests point AUTH_GITHUB_AUTHORIZE_URL, AUTH_GITHUB_TOKEN_URL and AUTH_GITHUB_API_URL at it.
 */
export interface GitHubAccount {
  id: number;
  login: string;
  name: string | null;
  /** The public profile email (null when the person keeps it private). */
  publicEmail: string | null;
  emails: { email: string; primary: boolean; verified: boolean; visibility: "public" | "private" | null }[];
}

export interface GitHubFake {
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
  requests: SeenRequest[];
  /** The OAuth app's callback URL as registered (redirect_uri must lie under it); set once the app's URL is known. */
  registerCallback(url: string): void;
  /** The account signed in to GitHub when the person reaches the authorize page from now on. */
  chooseAccount(account: GitHubAccount): void;
  close(): Promise<void>;
}

interface Grant {
  redirectUri: string;
  scopes: string[];
  codeChallenge?: string;
  account: GitHubAccount;
}

const DOCS = "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";

export async function startGitHubFake(options: { clientId: string; clientSecret: string }): Promise<GitHubFake> {
  const requests: SeenRequest[] = [];
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  let callbackUrl = "";
  let chosen: GitHubAccount = {
    id: 583231,
    login: "octocat",
    name: "The Octocat",
    publicEmail: null,
    emails: [{ email: "octocat@example.com", primary: true, verified: true, visibility: "private" }],
  };
  const underCallback = (uri: string) => {
    if (!callbackUrl) return true;
    const [registered, given] = [new URL(callbackUrl), new URL(uri)];
    return (
      registered.origin === given.origin && (given.pathname === registered.pathname || given.pathname.startsWith(`${registered.pathname.replace(/\/$/, "")}/`))
    );
  };

  const authorize = (req: SeenRequest, res: http.ServerResponse) => {
    const q = req.query;
    if (q.get("client_id") !== options.clientId) {
      res.writeHead(404, { "Content-Type": "text/html; charset=utf-8" });
      return res.end("<h1>Not Found</h1>");
    }
    const redirect = q.get("redirect_uri") || callbackUrl;
    const state = q.get("state");
    const back = (params: Record<string, string>) => {
      const url = new URL(underCallback(redirect) ? redirect : callbackUrl);
      for (const [k, v] of Object.entries({ ...params, ...(state ? { state } : {}) })) url.searchParams.set(k, v);
      res.writeHead(302, { Location: url.toString() });
      res.end();
    };
    if (!underCallback(redirect))
      return back({ error: "redirect_uri_mismatch", error_description: "The redirect_uri MUST match the registered callback URL for this application." });
    const challenge = q.get("code_challenge");
    if (challenge && q.get("code_challenge_method") !== "S256")
      return back({ error: "invalid_request", error_description: "code_challenge_method must be S256" });
    const code = randomBytes(10).toString("hex");
    codes.set(code, {
      redirectUri: redirect,
      // Space- or comma-separated; GitHub grants what it knows.
      scopes: (q.get("scope") ?? "").split(/[ ,]+/).filter(Boolean),
      ...(challenge ? { codeChallenge: challenge } : {}),
      account: chosen,
    });
    back({ code });
  };

  const accessToken = (req: SeenRequest, res: http.ServerResponse) => {
    const answer = (body: Record<string, string>) => {
      if (String(req.headers.accept ?? "").includes("application/json")) return json(res, 200, body);
      res.writeHead(200, { "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" });
      res.end(new URLSearchParams(body).toString());
    };
    const refuse = (error: string, error_description: string) => answer({ error, error_description, error_uri: `${DOCS}#${error.replace(/_/g, "-")}` });
    if (req.method !== "POST") {
      res.writeHead(404, { "Content-Type": "text/plain" });
      return res.end("Not Found");
    }
    const form = String(req.headers["content-type"] ?? "").startsWith("application/json")
      ? new URLSearchParams(JSON.parse(req.body || "{}") as Record<string, string>)
      : new URLSearchParams(req.body);
    let [clientId, clientSecret] = [form.get("client_id"), form.get("client_secret")];
    const basic = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ""));
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    if (basic) [clientId, clientSecret] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":").map(formDecode) as [string, string];
    if (clientId !== options.clientId || clientSecret !== options.clientSecret)
      return refuse("incorrect_client_credentials", "The client_id and/or client_secret passed are incorrect.");
    const grant = codes.get(form.get("code") ?? "");
    if (!grant) return refuse("bad_verification_code", "The code passed is incorrect or expired.");
    const redirect = form.get("redirect_uri");
    if (redirect && redirect !== grant.redirectUri)
      return refuse("redirect_uri_mismatch", "The redirect_uri MUST match the registered callback URL for this application.");
    if (grant.codeChallenge && !pkceVerifies(form.get("code_verifier") ?? "", { value: grant.codeChallenge, method: "S256" }))
      return refuse("bad_verification_code", "The code passed is incorrect or expired.");
    codes.delete(form.get("code")!);
    const token = `gho_${randomBytes(18).toString("base64url")}`;
    tokens.set(token, grant);
    answer({ access_token: token, scope: grant.scopes.join(","), token_type: "bearer" });
  };

  const apiError = (res: http.ServerResponse, status: number, message: string) =>
    json(res, status, { message, documentation_url: "https://docs.github.com/rest", status: String(status) });
  const api = (req: SeenRequest, res: http.ServerResponse) => {
    if (!req.headers["user-agent"])
      return apiError(res, 403, "Request forbidden by administrative rules. Please make sure your request has a User-Agent header.");
    const presented = /^(?:Bearer|token) (\S+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    const grant = presented ? tokens.get(presented) : undefined;
    if (!grant) return apiError(res, 401, presented ? "Bad credentials" : "Requires authentication");
    if (req.method !== "GET") return apiError(res, 404, "Not Found");
    const account = grant.account;
    if (req.path === "/user")
      return json(res, 200, {
        login: account.login,
        id: account.id,
        node_id: Buffer.from(`04:User${account.id}`).toString("base64"),
        avatar_url: `https://avatars.githubusercontent.com/u/${account.id}?v=4`,
        html_url: `https://github.com/${account.login}`,
        type: "User",
        site_admin: false,
        name: account.name,
        email: account.publicEmail,
        created_at: "2011-01-25T18:44:36Z",
      });
    if (req.path === "/user/emails") {
      if (!grant.scopes.some((s) => s === "user:email" || s === "user")) return apiError(res, 404, "Not Found");
      return json(res, 200, account.emails);
    }
    return apiError(res, 404, "Not Found");
  };

  const server = await listen(requests, (req, res) => {
    if (req.path === "/login/oauth/authorize") return authorize(req, res);
    if (req.path === "/login/oauth/access_token") return accessToken(req, res);
    if (req.path.startsWith("/api/")) return api({ ...req, path: req.path.slice("/api".length) }, res);
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("Not Found");
  });
  return {
    authorizeUrl: `${server.url}/login/oauth/authorize`,
    tokenUrl: `${server.url}/login/oauth/access_token`,
    // One listener plays both hosts: github.com's OAuth pages and api.github.com (here under /api).
    apiUrl: `${server.url}/api`,
    requests,
    registerCallback: (url) => void (callbackUrl = url),
    chooseAccount: (account) => void (chosen = account),
    close: () => server.close(),
  };
}
