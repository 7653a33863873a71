import type { Principal } from "@/lib/auth/principal";
import { principalFromRow, type MemberRow } from "@/lib/auth/principal-row";
import { isScope } from "@/lib/auth/scopes";
import { getDb, queryRows } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { defineService } from "@/lib/services";
import { ACCESS_TOKEN_PREFIX, hashSecret } from "./secrets";

const LAST_USED_RESOLUTION_MS = 60_000;

// One round trip: token, grant, workspace, user and membership. Not cached (unlike API keys):
// a revoked grant must stop working at once on every instance, and MCP traffic is light.
const TOKEN_QUERY = `
  SELECT g.id AS "grantId", g."userId", g."workspaceId", g.scopes, g.resource,
         (t."revokedAt" IS NOT NULL OR g."revokedAt" IS NOT NULL) AS revoked,
         (t."expiresAt" <= now()) AS expired,
         extract(epoch FROM g."lastUsedAt") * 1000 AS "lastUsedAtMs",
         w.name AS "workspaceName", w.status::text AS "workspaceStatus", w.plan,
         extract(epoch FROM w."trialEndsAt") * 1000 AS "trialEndsAtMs",
         w.credits, w."twoFactorRequiredFor",
         u.name AS "userName", u.email AS "userEmail", u."twoFactorEnabled",
         m.role::text AS role,
         (SELECT array_agg(mf."folderId") FROM membership_folders mf WHERE mf."membershipId" = m.id) AS "folderIds"
  FROM oauth_tokens t
  JOIN oauth_grants g ON g.id = t."grantId"
  JOIN workspaces w ON w.id = g."workspaceId"
  JOIN users u ON u.id = g."userId"
  LEFT JOIN memberships m ON m."workspaceId" = g."workspaceId" AND m."userId" = g."userId"
  WHERE t."hashedToken" = $1 AND t.kind = 'access'`;

interface TokenRow extends Omit<MemberRow, "role" | "trialEndsAt"> {
  grantId: string;
  userId: string;
  scopes: string[];
  resource: string;
  revoked: boolean;
  expired: boolean;
  lastUsedAtMs: number | string | null;
  trialEndsAtMs: number | string | null;
  role: Role | null;
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
  touchLastUsed(row);
  const trialEndsAt = row.trialEndsAtMs === null ? null : new Date(Number(row.trialEndsAtMs));
  return principalFromRow(
    { ...row, role: row.role, trialEndsAt },
    // kind api_key: programmatic access, with the same plan rules and messages as a key.
    { kind: "api_key", userId: row.userId, keyId: row.grantId, scopes: row.scopes.filter(isScope) },
  );
}

const lastTouchedAt = defineService("oauth.grant-last-touched", () => new Map<string, number>());

/** The grant's lastUsedAt (shown on the API keys page), written at most once a minute, off the request path. */
function touchLastUsed(row: TokenRow): void {
  const now = Date.now();
  if (row.lastUsedAtMs !== null && now - Number(row.lastUsedAtMs) < LAST_USED_RESOLUTION_MS) return;
  const touched = lastTouchedAt();
  if (now - (touched.get(row.grantId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
  if (touched.size > 10_000) touched.clear();
  touched.set(row.grantId, now);
  getDb()
    .oAuthGrant.update({ where: { id: row.grantId }, data: { lastUsedAt: new Date(now) } })
    .catch((err: unknown) => console.error("[oauth] could not record lastUsedAt", err));
}
