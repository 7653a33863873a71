import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { API_KEY_PREFIX, hashApiKey } from "./api-key-secret";
import type { Principal } from "./principal";
import { principalFromRow, type MemberRow } from "./principal-row";
import { isScope } from "./scopes";

interface KeyRow extends Omit<MemberRow, "role"> {
  keyId: string;
  userId: string;
  scopes: string[];
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** null when the key's creator is no longer a member. */
  role: Role | null;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Reads `Authorization: Bearer <key>` and resolves the key to a Principal, or throws 401. */
export async function authenticateApiKey(authorization: string | null): Promise<Principal> {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) throw new AppError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>");
  const secret = match[1]!;
  if (!secret.startsWith(API_KEY_PREFIX)) throw new AppError("unauthorized", "Invalid API key");

  // One round trip on the hot path: key, workspace, creator and membership together.
  const rows = await getDb().$queryRaw<KeyRow[]>`
    SELECT k.id AS "keyId", k."workspaceId", k."createdById" AS "userId", k.scopes,
           k."revokedAt", k."lastUsedAt",
           w.name AS "workspaceName", w.status::text AS "workspaceStatus", w.plan, w."trialEndsAt",
           w.credits, w."twoFactorRequiredFor",
           u.name AS "userName", u.email AS "userEmail", u."twoFactorEnabled",
           m.role::text AS role,
           (SELECT array_agg(mf."folderId") FROM membership_folders mf WHERE mf."membershipId" = m.id) AS "folderIds"
    FROM api_keys k
    JOIN workspaces w ON w.id = k."workspaceId"
    JOIN users u ON u.id = k."createdById"
    LEFT JOIN memberships m ON m."workspaceId" = k."workspaceId" AND m."userId" = k."createdById"
    WHERE k."hashedKey" = ${hashApiKey(secret)}`;
  const row = rows[0];
  if (!row || row.revokedAt) throw new AppError("unauthorized", "Invalid API key");
  if (!row.role) throw new AppError("unauthorized", "Invalid API key: its creator is no longer a member of the workspace");

  touchLastUsed(row);
  return principalFromRow(
    { ...row, role: row.role },
    { kind: "api_key", userId: row.userId, keyId: row.keyId, scopes: row.scopes.length ? row.scopes.filter(isScope) : null },
  );
}

/** lastUsedAt is written at most once a minute per key, off the request's critical path. */
function touchLastUsed(row: KeyRow): void {
  const now = Date.now();
  if (row.lastUsedAt && now - row.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  const cutoff = new Date(now - LAST_USED_RESOLUTION_MS);
  getDb()
    .apiKey.updateMany({
      where: { id: row.keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: cutoff } }] },
      data: { lastUsedAt: new Date(now) },
    })
    .catch((err: unknown) => console.error("[api-keys] could not record lastUsedAt", err));
}
