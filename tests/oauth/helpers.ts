import { randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { inject } from "vitest";
import { admin } from "../helpers/fixtures";
import { cookieHeader, signIn } from "../dashboard/session";

export const PASSWORD = "a long enough password";
let n = 0;

/** A pro workspace whose owner can sign in to the dashboard (and so consent). */
export async function ownerWithPassword(dataDir = inject("dataDir")) {
  const email = `oauth-${Date.now()}-${++n}@example.com`;
  const { workspaceId, ownerUserId } = await admin(["workspace", "create", "--name", `OAuth ${n}`, "--plan", "pro", "--owner-email", email], dataDir);
  await admin(["user", "password", "--email", email, "--password", PASSWORD], dataDir);
  return { workspaceId: workspaceId!, userId: ownerUserId!, email };
}

/**
 * An MCP client's OAuth state kept in memory, as an assistant would keep it: the SDK's `auth()`
 * calls these; `authorizationUrl` is where it would have sent the user's browser.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  clientInfo?: OAuthClientInformationMixed;
  savedTokens?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  readonly stateValue = randomBytes(12).toString("hex");

  constructor(
    readonly redirect = "http://127.0.0.1:8976/callback",
    readonly scope?: string,
  ) {}

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test assistant",
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  state() {
    return this.stateValue;
  }
  clientInformation() {
    return this.clientInfo;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.clientInfo = info;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * What the user's browser does: follows the authorization URL to the consent page, signed in,
 * and posts the consent form. Returns the redirect back to the client (code or error, state).
 */
export async function consentInBrowser(
  authorizationUrl: URL,
  user: { email: string },
  choice: { workspaceId: string; scopes: string[]; decision?: "allow" | "deny" },
  baseUrl = inject("baseUrl"),
): Promise<{ redirect: URL; consentPageStatus: number }> {
  const authorize = await fetch(authorizationUrl, { redirect: "manual" });
  if (authorize.status !== 302) throw new Error(`authorize answered ${authorize.status}: ${await authorize.text()}`);
  const consentPath = authorize.headers.get("location")!;
  const { jar } = await signIn(user.email, PASSWORD, "", baseUrl);
  const page = await fetch(baseUrl + consentPath, { headers: { Cookie: cookieHeader(jar) }, redirect: "manual" });
  await page.text();
  const form = new URLSearchParams(new URL(consentPath, baseUrl).search);
  form.set("decision", choice.decision ?? "allow");
  form.set("workspace_id", choice.workspaceId);
  for (const s of choice.scopes) form.append("scopes", s);
  const posted = await postConsent(jar, form, baseUrl);
  if (posted.status !== 303) throw new Error(`consent answered ${posted.status}: ${await posted.text()}`);
  return { redirect: new URL(posted.headers.get("location")!), consentPageStatus: page.status };
}

/** Posts the consent form as the page would (same-origin, the session cookie). */
export function postConsent(jar: Map<string, string>, form: URLSearchParams, baseUrl = inject("baseUrl")): Promise<Response> {
  return fetch(`${baseUrl}/api/oauth/consent`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookieHeader(jar), "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl, "Sec-Fetch-Site": "same-origin" },
    body: form,
  });
}

/** A form post to one of the OAuth endpoints, with the JSON answer. */
export async function postForm(path: string, fields: Record<string, string>, baseUrl = inject("baseUrl")) {
  const res = await fetch(baseUrl + path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
