import { CAPABILITIES } from "@/lib/auth/capabilities";
import { displayApiKey, generateApiKeySecret, hashApiKey } from "@/lib/auth/api-key-secret";
import { roleAllows } from "@/lib/auth/roles";
import { isScope, SCOPES, type Scope } from "@/lib/auth/scopes";
import { getDb } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";

export const API_KEY_NAME_MAX = 100;

/** Scopes whose actions the role can use at all: a key is never created wider than its creator. */
export function scopesForRole(role: Role): Scope[] {
  return SCOPES.filter((scope) =>
    Object.values(CAPABILITIES).some((c) => Array.isArray(c.scopes) && (c.scopes as Scope[]).includes(scope) && roleAllows(role, c.permission)),
  );
}

export interface CreateApiKeyInput {
  workspaceId: string;
  userId: string;
  name?: string;
  /** Absent or empty: an unscoped key (everything its creator may do). */
  scopes?: string[];
}

/** Creates a key bound to the workspace; returns the secret, which is never stored and never shown again. */
export async function createApiKey(input: CreateApiKeyInput): Promise<{ id: string; key: string; partialKey: string; scopes: Scope[] }> {
  const db = getDb();
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: input.userId } },
  });
  if (!membership) throw notFound("Membership of this user in this workspace");
  const scopes = [...new Set(input.scopes ?? [])];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw badRequest(`Unknown scope${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}; valid scopes are ${SCOPES.join(", ")}`);
  const allowed = scopesForRole(membership.role);
  const tooWide = scopes.filter((s) => !allowed.includes(s as Scope));
  if (tooWide.length) throw badRequest(`A ${membership.role} cannot grant the scope${tooWide.length > 1 ? "s" : ""} ${tooWide.join(", ")}`);
  const name = (input.name ?? "API key").trim();
  if (!name || name.length > API_KEY_NAME_MAX) throw badRequest(`Key name must be 1 to ${API_KEY_NAME_MAX} characters`);

  const secret = generateApiKeySecret();
  const id = newId("key");
  await db.apiKey.create({
    data: {
      id,
      workspaceId: input.workspaceId,
      createdById: input.userId,
      name,
      hashedKey: hashApiKey(secret),
      partialKey: displayApiKey(secret),
      scopes,
    },
  });
  return { id, key: secret, partialKey: displayApiKey(secret), scopes: scopes as Scope[] };
}

/**
 * Revokes a key; the next request with it answers 401. The caller says whose keys may be revoked:
 * a workspace's, or (the operator CLI only) any workspace's, so no request path can forget the scope.
 */
export async function revokeApiKey(id: string, scope: { workspaceId: string } | "any-workspace"): Promise<void> {
  const where = { id, ...(scope === "any-workspace" ? {} : { workspaceId: scope.workspaceId }) };
  const { count } = await getDb().apiKey.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) {
    const exists = await getDb().apiKey.findFirst({ where, select: { id: true } });
    if (!exists) throw notFound("API key");
  }
}

/**
 * Revokes every active key `userId` created (in `workspaceId` only, when given), inside the caller's transaction `tx`;
 * returns how many. For changes that end what a user may do with keys (a member removed, a takeover undone).
 */
export async function revokeKeysCreatedBy(tx: Pick<Prisma.TransactionClient, "apiKey">, userId: string, workspaceId?: string): Promise<number> {
  const { count } = await tx.apiKey.updateMany({
    where: { createdById: userId, ...(workspaceId ? { workspaceId } : {}), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count;
}
