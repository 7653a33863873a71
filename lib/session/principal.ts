import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { principalFromRow, type MemberRow } from "@/lib/auth/principal-row";
import { findTextInputProblem } from "@/lib/text-input";

/** The cookie naming the signed-in user's active workspace (checked against their memberships on every use). */
export const ACTIVE_WORKSPACE_COOKIE = "adloom-workspace";

/**
 * The dashboard principal of a signed-in user: the preferred workspace when they are
 * still an active member of it, else their oldest active membership; null when they have none.
 */
export async function principalForUser(userId: string, preferredWorkspaceId?: string | null): Promise<Principal | null> {
  // The preference comes from a cookie: text the database cannot hold means no preference.
  if (preferredWorkspaceId && findTextInputProblem(preferredWorkspaceId, { maxStringLength: 200 })) preferredWorkspaceId = null;
  const rows = await getDb().$queryRaw<MemberRow[]>`
    SELECT m."workspaceId", m.role::text AS role,
           w.name AS "workspaceName", w.status::text AS "workspaceStatus", w.plan, w."trialEndsAt",
           w.credits, w."twoFactorRequiredFor",
           u.name AS "userName", u.email AS "userEmail", u."twoFactorEnabled",
           (SELECT array_agg(mf."folderId") FROM membership_folders mf WHERE mf."membershipId" = m.id) AS "folderIds"
    FROM memberships m
    JOIN workspaces w ON w.id = m."workspaceId"
    JOIN users u ON u.id = m."userId"
    WHERE m."userId" = ${userId} AND w.status = 'active'
    ORDER BY (m."workspaceId" = ${preferredWorkspaceId ?? ""}) DESC, m."createdAt" ASC
    LIMIT 1`;
  const row = rows[0];
  if (!row) return null;
  return principalFromRow(row, { kind: "session", userId, keyId: null, scopes: null });
}
