import { getDb, queryRows } from "@/lib/db/client";
import { defineService } from "@/lib/services";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { API_KEY_PREFIX, hashApiKey } from "./api-key-secret";
import type { Principal } from "./principal";
import { cachedKeyLookup } from "./key-cache";
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

// One round trip on the hot path: key, workspace, creator and membership together.
// Timestamps come back as epoch milliseconds (see queryRows).
const KEY_QUERY = `
  SELECT k.id AS "keyId", k."workspaceId", k."createdById" AS "userId", k.scopes,
         extract(epoch FROM k."revokedAt") * 1000 AS "revokedAtMs",
         extract(epoch FROM k."lastUsedAt") * 1000 AS "lastUsedAtMs",
         w.name AS "workspaceName", w.status::text AS "workspaceStatus", w.plan,
         extract(epoch FROM w."trialEndsAt") * 1000 AS "trialEndsAtMs",
         w.credits, w."twoFactorRequiredFor",
         u.name AS "userName", u.email AS "userEmail", u."twoFactorEnabled",
         m.role::text AS role,
         (SELECT array_agg(mf."folderId") FROM membership_folders mf WHERE mf."membershipId" = m.id) AS "folderIds"
  FROM api_keys k
  JOIN workspaces w ON w.id = k."workspaceId"
  JOIN users u ON u.id = k."createdById"
  LEFT JOIN memberships m ON m."workspaceId" = k."workspaceId" AND m."userId" = k."createdById"
  WHERE k."hashedKey" = $1`;

type KeyQueryRow = Omit<KeyRow, "revokedAt" | "lastUsedAt" | "trialEndsAt"> & {
  revokedAtMs: number | string | null;
  lastUsedAtMs: number | string | null;
  trialEndsAtMs: number | string | null;
};

const toDate = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)));

function fromQueryRow({ revokedAtMs, lastUsedAtMs, trialEndsAtMs, ...rest }: KeyQueryRow): KeyRow {
  return { ...rest, revokedAt: toDate(revokedAtMs), lastUsedAt: toDate(lastUsedAtMs), trialEndsAt: toDate(trialEndsAtMs) };
}

/** Reads `Authorization: Bearer <key>` and resolves the key to a Principal, or throws 401. */
export async function authenticateApiKey(authorization: string | null): Promise<Principal> {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) throw new AppError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>");
  const secret = match[1]!;
  if (!secret.startsWith(API_KEY_PREFIX)) throw new AppError("unauthorized", "Invalid API key");

  const hash = hashApiKey(secret);
  const row = await cachedKeyLookup(hash, async () => {
    const rows = await queryRows<KeyQueryRow>(KEY_QUERY, [hash]);
    return rows[0] && fromQueryRow(rows[0]);
  });
  if (!row || row.revokedAt) throw new AppError("unauthorized", "Invalid API key");
  if (!row.role) throw new AppError("unauthorized", "Invalid API key: its creator is no longer a member of the workspace");

  touchLastUsed(row);
  return principalFromRow(
    { ...row, role: row.role },
    { kind: "api_key", userId: row.userId, keyId: row.keyId, scopes: row.scopes.length ? row.scopes.filter(isScope) : null },
  );
}

/** When this process last wrote each key's lastUsedAt (the row itself may come from the key cache). */
const lastTouchedAt = defineService("auth.key-last-touched", () => new Map<string, number>());

/** lastUsedAt is written at most once a minute per key, off the request's critical path. */
function touchLastUsed(row: KeyRow): void {
  const now = Date.now();
  if (row.lastUsedAt && now - row.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  const lastTouched = lastTouchedAt();
  if (now - (lastTouched.get(row.keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
  if (lastTouched.size > 10_000) lastTouched.clear();
  lastTouched.set(row.keyId, now);
  const cutoff = new Date(now - LAST_USED_RESOLUTION_MS);
  getDb()
    .apiKey.updateMany({
      where: { id: row.keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: cutoff } }] },
      data: { lastUsedAt: new Date(now) },
    })
    .catch((err: unknown) => console.error("[api-keys] could not record lastUsedAt", err));
}
