import type { Principal } from "@/lib/auth/principal";
import { lastUsedRecorder } from "@/lib/auth/last-used";
import { dateFromMs, MEMBER_COLUMNS, memberRowOf, principalFromRow, type MemberColumnsRow } from "@/lib/auth/principal-row";
import { isScope } from "@/lib/auth/scopes";
import { getDb, queryRows } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { ACCESS_TOKEN_PREFIX, hashSecret } from "./secrets";

// One round trip: token, grant, workspace, user and membership. Not cached (unlike API keys):
// a revoked grant must stop working at once on every instance, and MCP traffic is light.
const TOKEN_QUERY = `
  SELECT g.id AS "grantId", g."userId", g."workspaceId", g.scopes, g.resource,
         (t."revokedAt" IS NOT NULL OR g."revokedAt" IS NOT NULL) AS revoked,
         (t."expiresAt" <= now()) AS expired,
         extract(epoch FROM g."lastUsedAt") * 1000 AS "lastUsedAtMs",
         ${MEMBER_COLUMNS}
  FROM oauth_tokens t
  JOIN oauth_grants g ON g.id = t."grantId"
  JOIN workspaces w ON w.id = g."workspaceId"
  JOIN users u ON u.id = g."userId"
  LEFT JOIN memberships m ON m."workspaceId" = g."workspaceId" AND m."userId" = g."userId"
  WHERE t."hashedToken" = $1 AND t.kind = 'access'`;

/** The token's grant with its user's membership; `role` is null when the user left the workspace. */
interface TokenRow extends MemberColumnsRow {
  grantId: string;
  userId: string;
  scopes: string[];
  resource: string;
  revoked: boolean;
  expired: boolean;
  lastUsedAtMs: number | string | null;
}

export const isOAuthAccessToken = (secret: string) => secret.startsWith(ACCESS_TOKEN_PREFIX);

/**
 * Resolves an OAuth access token to the principal it acts as: the consenting user in the chosen
 * workspace, limited to the granted scopes (never unscoped). Throws 401 `unauthorized` when the
 * token is unknown, expired, revoked, bound to another resource, or its user left the workspace.
 */
export async function authenticateAccessToken(secret: string, resource: string): Promise<Principal> {
  const [row] = await queryRows<TokenRow>(TOKEN_QUERY, [hashSecret(secret)]);
  if (!row || row.revoked) throw new AppError("unauthorized", "Invalid OAuth access token: unknown or revoked; authorize again");
  if (row.expired) throw new AppError("unauthorized", "The OAuth access token has expired; refresh it");
  if (row.resource !== resource) throw new AppError("unauthorized", `This OAuth access token was issued for ${row.resource}, not this resource`);
  if (!row.role) throw new AppError("unauthorized", "Invalid OAuth access token: its user is no longer a member of the workspace");
  recordLastUsed(row.grantId, dateFromMs(row.lastUsedAtMs));
  return principalFromRow(
    memberRowOf({ ...row, role: row.role }),
    // kind api_key: programmatic access, with the same plan rules and messages as a key.
    { kind: "api_key", userId: row.userId, keyId: row.grantId, scopes: row.scopes.filter(isScope) },
  );
}

/** The grant's lastUsedAt is shown on the API keys page. */
const recordLastUsed = lastUsedRecorder("oauth-grants", (grantId, at, olderThan) =>
  getDb().oAuthGrant.updateMany({ where: { id: grantId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: olderThan } }] }, data: { lastUsedAt: at } }),
);
