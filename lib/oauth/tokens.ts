import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { getDb } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { OAuthError } from "./errors";
import { lifetimes } from "./lifetimes";
import { ACCESS_TOKEN_PREFIX, hashSecret, isValidVerifier, newSecret, REFRESH_TOKEN_PREFIX, s256 } from "./secrets";
import { isOurResource } from "./urls";

type Db = ReturnType<typeof getDb>;
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** A fresh access + refresh token pair of the grant. */
async function issueTokens(tx: Tx, grant: { id: string; scopes: string[] }): Promise<OAuthTokens> {
  const { accessMs, refreshMs } = lifetimes();
  const access = newSecret(ACCESS_TOKEN_PREFIX);
  const refresh = newSecret(REFRESH_TOKEN_PREFIX);
  const now = Date.now();
  await tx.oAuthToken.createMany({
    data: [
      { id: newId("oat"), grantId: grant.id, kind: "access", hashedToken: hashSecret(access), expiresAt: new Date(now + accessMs) },
      { id: newId("oat"), grantId: grant.id, kind: "refresh", hashedToken: hashSecret(refresh), expiresAt: new Date(now + refreshMs) },
    ],
  });
  return { access_token: access, token_type: "Bearer", expires_in: Math.floor(accessMs / 1000), refresh_token: refresh, scope: grant.scopes.join(" ") };
}

/** Ends a grant and every token issued under it. */
export async function revokeGrant(db: Db | Tx, grantId: string): Promise<void> {
  const now = new Date();
  await db.oAuthGrant.updateMany({ where: { id: grantId, revokedAt: null }, data: { revokedAt: now } });
  await db.oAuthToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
}

/**
 * Ends every connection `userId` granted (in `workspaceId` only, when given) with its tokens, and spends the user's
 * authorization codes not yet exchanged, which would otherwise become connections after this; returns how many
 * connections were ended.
 */
export async function revokeGrantsOfUser(db: Db | Tx, userId: string, workspaceId?: string): Promise<number> {
  const scope = { userId, ...(workspaceId ? { workspaceId } : {}) };
  await db.oAuthAuthorizationCode.updateMany({ where: { ...scope, usedAt: null }, data: { usedAt: new Date() } });
  const grants = await db.oAuthGrant.findMany({ where: { ...scope, revokedAt: null }, select: { id: true } });
  for (const grant of grants) await revokeGrant(db, grant.id);
  return grants.length;
}

async function isMember(db: Db | Tx, userId: string, workspaceId: string): Promise<boolean> {
  return (await db.membership.count({ where: { userId, workspaceId, workspace: { status: "active" } } })) > 0;
}

export interface CodeExchange {
  code?: string | null;
  code_verifier?: string | null;
  redirect_uri?: string | null;
  client_id?: string | null;
  resource?: string | null;
}

/**
 * grant_type=authorization_code (RFC 6749 §4.1.3 + PKCE): the code is single-use; presenting it
 * again revokes the tokens issued from it (RFC 6749 §4.1.2).
 */
export async function exchangeCode(input: CodeExchange, origin: string): Promise<OAuthTokens> {
  if (!input.code) throw new OAuthError("invalid_request", "code is required");
  if (!input.client_id) throw new OAuthError("invalid_request", "client_id is required (public clients identify themselves in the body)");
  if (!input.code_verifier) throw new OAuthError("invalid_request", "code_verifier is required (PKCE)");
  if (!isValidVerifier(input.code_verifier)) throw new OAuthError("invalid_request", "code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]");
  const db = getDb();
  const client = await db.oAuthClient.findUnique({ where: { id: input.client_id }, select: { id: true } });
  if (!client) throw new OAuthError("invalid_client", `Unknown client_id ${input.client_id}`);
  const code = await db.oAuthAuthorizationCode.findUnique({ where: { hashedCode: hashSecret(input.code) } });
  if (!code || code.clientId !== client.id) throw new OAuthError("invalid_grant", "Unknown authorization code");
  if (code.usedAt) {
    if (code.grantId) await revokeGrant(db, code.grantId);
    throw new OAuthError("invalid_grant", "This authorization code was already used; the tokens issued from it are revoked");
  }
  if (code.expiresAt.getTime() <= Date.now()) throw new OAuthError("invalid_grant", "The authorization code has expired; start the authorization again");
  if (input.redirect_uri !== code.redirectUri) throw new OAuthError("invalid_grant", "redirect_uri does not match the one of the authorization request");
  if (s256(input.code_verifier) !== code.codeChallenge) throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge");
  if (input.resource && !isOurResource(input.resource, origin)) throw new OAuthError("invalid_target", "resource does not match the authorization request's");

  return db.$transaction(async (tx) => {
    // Single use, also against a concurrent exchange of the same code.
    const claimed = await tx.oAuthAuthorizationCode.updateMany({ where: { id: code.id, usedAt: null }, data: { usedAt: new Date() } });
    if (claimed.count !== 1) throw new OAuthError("invalid_grant", "This authorization code was already used");
    if (!(await isMember(tx, code.userId, code.workspaceId))) throw new OAuthError("invalid_grant", "The user is no longer a member of the chosen workspace");
    // A new consent replaces this client's earlier connection of the same user to the same workspace.
    const earlier = await tx.oAuthGrant.findMany({
      where: { clientId: code.clientId, userId: code.userId, workspaceId: code.workspaceId, revokedAt: null },
      select: { id: true },
    });
    for (const g of earlier) await revokeGrant(tx, g.id);
    const grant = await tx.oAuthGrant.create({
      data: { id: newId("oag"), clientId: code.clientId, userId: code.userId, workspaceId: code.workspaceId, scopes: code.scopes, resource: code.resource },
    });
    await tx.oAuthAuthorizationCode.update({ where: { id: code.id }, data: { grantId: grant.id } });
    return issueTokens(tx, grant);
  });
}

export interface RefreshExchange {
  refresh_token?: string | null;
  client_id?: string | null;
  scope?: string | null;
  resource?: string | null;
}

/**
 * grant_type=refresh_token with rotation (OAuth 2.1 §4.3.1): the presented token is spent and a new
 * pair is issued; a spent refresh token presented again means it leaked, so the grant is revoked.
 */
export async function refreshTokens(input: RefreshExchange, origin: string): Promise<OAuthTokens> {
  if (!input.refresh_token) throw new OAuthError("invalid_request", "refresh_token is required");
  if (!input.client_id) throw new OAuthError("invalid_request", "client_id is required (public clients identify themselves in the body)");
  const db = getDb();
  const token = await db.oAuthToken.findUnique({ where: { hashedToken: hashSecret(input.refresh_token) }, include: { grant: true } });
  if (token?.kind !== "refresh" || token.grant.clientId !== input.client_id) throw new OAuthError("invalid_grant", "Unknown refresh token");
  if (token.grant.revokedAt) throw new OAuthError("invalid_grant", "This connection was revoked; authorize again");
  if (token.revokedAt) {
    await revokeGrant(db, token.grantId);
    throw new OAuthError("invalid_grant", "This refresh token was already used; the connection is revoked, authorize again");
  }
  if (token.expiresAt.getTime() <= Date.now()) throw new OAuthError("invalid_grant", "The refresh token has expired; authorize again");
  if (input.resource && !isOurResource(input.resource, origin)) throw new OAuthError("invalid_target", "resource does not match the grant's");
  if (input.scope) {
    const asked = new Set(input.scope.split(" ").filter(Boolean));
    const same = asked.size === token.grant.scopes.length && token.grant.scopes.every((s) => asked.has(s));
    if (!same)
      throw new OAuthError("invalid_scope", `A refresh keeps the granted scopes (${token.grant.scopes.join(" ") || "none"}); omit scope or authorize again`);
  }
  return db.$transaction(async (tx) => {
    if (!(await isMember(tx, token.grant.userId, token.grant.workspaceId)))
      throw new OAuthError("invalid_grant", "The user is no longer a member of the workspace");
    const spent = await tx.oAuthToken.updateMany({ where: { id: token.id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (spent.count !== 1) throw new OAuthError("invalid_grant", "This refresh token was already used");
    return issueTokens(tx, token.grant);
  });
}

/**
 * RFC 7009: revoking either token of a grant ends the whole grant (access and refresh tokens).
 * Unknown tokens, or tokens of another client, are answered the same as success (§2.2).
 */
export async function revokeToken(input: { token?: string | null; client_id?: string | null }): Promise<void> {
  if (!input.token) throw new OAuthError("invalid_request", "token is required");
  const db = getDb();
  const token = await db.oAuthToken.findUnique({
    where: { hashedToken: hashSecret(input.token) },
    select: { grantId: true, grant: { select: { clientId: true } } },
  });
  if (!token) return;
  if (input.client_id && input.client_id !== token.grant.clientId) return;
  await revokeGrant(db, token.grantId);
}
