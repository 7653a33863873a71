import { isScope, type Scope } from "@/lib/auth/scopes";
import { findClient, type RegisteredClient } from "./clients";
import { OAuthError } from "./errors";
import { isOurResource, mcpResourceUrl } from "./urls";

/** The parameters of an authorization request (RFC 6749 §4.1.1 + PKCE + RFC 8707 resource). */
export interface AuthorizationParams {
  response_type?: string | null;
  client_id?: string | null;
  redirect_uri?: string | null;
  code_challenge?: string | null;
  code_challenge_method?: string | null;
  state?: string | null;
  scope?: string | null;
  resource?: string | null;
}

export const AUTHORIZATION_PARAM_NAMES = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "state",
  "scope",
  "resource",
] as const satisfies readonly (keyof AuthorizationParams)[];

/** A request whose client and redirect URI are known to be good. */
export interface ValidAuthorizationRequest {
  client: RegisteredClient;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  /** The scopes the client asked for (known ones); empty when it asked for none. */
  requestedScopes: Scope[];
  resource: string;
}

/**
 * Raised once the redirect URI is trusted: the error goes back to the client at its redirect
 * URI (RFC 6749 §4.1.2.1). Errors before that (unknown client, redirect mismatch) are shown to
 * the user and never redirected, so this server is not an open redirector.
 */
export class RedirectableOAuthError extends OAuthError {
  constructor(
    error: OAuthError["error"],
    description: string,
    readonly redirectUri: string,
    readonly state: string | null,
  ) {
    super(error, description);
  }
}

/** The client's redirect URI with the query parameters added. */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

export function errorRedirect(err: RedirectableOAuthError, issuer: string): string {
  return redirectWith(err.redirectUri, { error: err.error, error_description: err.description, state: err.state, iss: issuer });
}

const MAX_STATE = 1000;

/** Checks an authorization request; throws OAuthError (show) or RedirectableOAuthError (send back). */
export async function validateAuthorizationRequest(params: AuthorizationParams, origin: string): Promise<ValidAuthorizationRequest> {
  const client = await findClient(params.client_id);
  let redirectUri = params.redirect_uri ?? null;
  if (!redirectUri) {
    if (client.redirectUris.length !== 1) throw new OAuthError("invalid_request", "redirect_uri is required: the client registered several");
    redirectUri = client.redirectUris[0]!;
  } else if (!client.redirectUris.includes(redirectUri)) {
    throw new OAuthError("invalid_request", `redirect_uri ${redirectUri} does not match any URI this client registered`);
  }
  const state = params.state ?? null;
  const fail = (error: OAuthError["error"], description: string) =>
    new RedirectableOAuthError(error, description, redirectUri, state && state.length <= MAX_STATE ? state : null);
  if (state && state.length > MAX_STATE) throw fail("invalid_request", `state must be at most ${MAX_STATE} characters`);
  if (params.response_type !== "code") throw fail("unsupported_response_type", "response_type must be code");
  if (!params.code_challenge) throw fail("invalid_request", "code_challenge is required (PKCE with S256)");
  if (params.code_challenge_method !== "S256") throw fail("invalid_request", "code_challenge_method must be S256");
  if (!/^[A-Za-z0-9\-_]{43}$/.test(params.code_challenge))
    throw fail("invalid_request", "code_challenge must be the 43-character base64url SHA-256 of the verifier");
  const resource = params.resource ?? mcpResourceUrl(origin);
  if (!isOurResource(resource, origin)) throw fail("invalid_target", `resource must be ${mcpResourceUrl(origin)}, the MCP endpoint these tokens are for`);
  const asked = (params.scope ?? "").split(" ").filter(Boolean);
  const unknown = asked.filter((s) => !isScope(s));
  if (unknown.length) throw fail("invalid_scope", `Unknown scope${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`);
  return {
    client,
    redirectUri,
    codeChallenge: params.code_challenge,
    state,
    requestedScopes: [...new Set(asked as Scope[])],
    resource: mcpResourceUrl(origin),
  };
}

/** The request's parameters from a URLSearchParams or FormData-like source (first value of each). */
export function readAuthorizationParams(source: { get(name: string): unknown }): AuthorizationParams {
  const out: AuthorizationParams = {};
  for (const name of AUTHORIZATION_PARAM_NAMES) {
    const value = source.get(name);
    if (typeof value === "string") out[name] = value;
  }
  return out;
}
