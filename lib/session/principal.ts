import type { Principal } from "@/lib/auth/principal";
import { queryRows } from "@/lib/db/client";
import { MEMBER_COLUMNS, memberRowOf, principalFromRow, type MemberColumnsRow } from "@/lib/auth/principal-row";
import type { Role } from "@/lib/generated/prisma/enums";
import { findTextInputProblem } from "@/lib/text-input";

/** The cookie naming the signed-in user's active workspace (checked against their memberships on every use). */
export const ACTIVE_WORKSPACE_COOKIE = "adloom-workspace";

// The member's oldest active workspace, or the preferred one ($2) when they are a member of it.
const SESSION_QUERY = `
  SELECT m."workspaceId", ${MEMBER_COLUMNS}
  FROM memberships m
  JOIN workspaces w ON w.id = m."workspaceId"
  JOIN users u ON u.id = m."userId"
  WHERE m."userId" = $1 AND w.status = 'active'
  ORDER BY (m."workspaceId" = $2) DESC, m."createdAt" ASC
  LIMIT 1`;

/**
 * The dashboard principal of a signed-in user: the preferred workspace when they are
 * still an active member of it, else their oldest active membership; null when they have none.
 */
export async function principalForUser(userId: string, preferredWorkspaceId?: string | null): Promise<Principal | null> {
  // The preference comes from a cookie: text the database cannot hold means no preference.
  if (preferredWorkspaceId && findTextInputProblem(preferredWorkspaceId, { maxStringLength: 200 })) preferredWorkspaceId = null;
  const rows = await queryRows<MemberColumnsRow & { role: Role }>(SESSION_QUERY, [userId, preferredWorkspaceId ?? ""]);
  const row = rows[0];
  if (!row) return null;
  return principalFromRow(memberRowOf(row), { kind: "session", userId, keyId: null, scopes: null });
}
