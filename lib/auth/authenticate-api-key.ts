import { getDb, queryRows } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { API_KEY_PREFIX, hashApiKey } from "./api-key-secret";
import type { Principal } from "./principal";
import { cachedKeyLookup } from "./key-cache";
import { lastUsedRecorder } from "./last-used";
import { dateFromMs, MEMBER_COLUMNS, memberRowOf, principalFromRow, type MemberColumnsRow } from "./principal-row";
import { isScope } from "./scopes";

// One round trip on the hot path: key, workspace, creator and membership together.
// Timestamps come back as epoch milliseconds (see queryRows).
const KEY_QUERY = `
  SELECT k.id AS "keyId", k."workspaceId", k."createdById" AS "userId", k.scopes,
         extract(epoch FROM k."revokedAt") * 1000 AS "revokedAtMs",
         extract(epoch FROM k."lastUsedAt") * 1000 AS "lastUsedAtMs",
         ${MEMBER_COLUMNS}
  FROM api_keys k
  JOIN workspaces w ON w.id = k."workspaceId"
  JOIN users u ON u.id = k."createdById"
  LEFT JOIN memberships m ON m."workspaceId" = k."workspaceId" AND m."userId" = k."createdById"
  WHERE k."hashedKey" = $1`;

/** The key with its creator's membership; `role` is null when the creator is no longer a member. */
interface KeyRow extends MemberColumnsRow {
  keyId: string;
  userId: string;
  scopes: string[];
  revokedAtMs: number | string | null;
  lastUsedAtMs: number | string | null;
}

/** Reads `Authorization: Bearer <key>` and resolves the key to a Principal, or throws 401. */
export async function authenticateApiKey(authorization: string | null): Promise<Principal> {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) throw new AppError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>");
  const secret = match[1]!;
  if (!secret.startsWith(API_KEY_PREFIX)) throw new AppError("unauthorized", "Invalid API key");

  const hash = hashApiKey(secret);
  const row = await cachedKeyLookup(hash, async () => {
    const rows = await queryRows<KeyRow>(KEY_QUERY, [hash]);
    return rows[0];
  });
  if (!row || row.revokedAtMs !== null) throw new AppError("unauthorized", "Invalid API key");
  if (!row.role) throw new AppError("unauthorized", "Invalid API key: its creator is no longer a member of the workspace");

  recordLastUsed(row.keyId, dateFromMs(row.lastUsedAtMs));
  return principalFromRow(memberRowOf({ ...row, role: row.role }), {
    kind: "api_key",
    userId: row.userId,
    keyId: row.keyId,
    scopes: row.scopes.length ? row.scopes.filter(isScope) : null,
  });
}

const recordLastUsed = lastUsedRecorder("api-keys", (keyId, at, olderThan) =>
  getDb().apiKey.updateMany({ where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: olderThan } }] }, data: { lastUsedAt: at } }),
);
