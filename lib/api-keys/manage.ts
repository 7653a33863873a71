import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/roles";
import type { Scope } from "@/lib/auth/scopes";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { planStatus } from "@/lib/workspaces/plan";
import { createApiKey, revokeApiKey, scopesForRole } from "./api-keys";

export interface ApiKeySummary {
  id: string;
  name: string;
  /** Display form, e.g. `adl_AbCd…wxyz`. */
  partialKey: string;
  /** Empty: unscoped. */
  scopes: string[];
  createdBy: { id: string; name: string; email: string };
  createdAt: string;
  lastUsedAt: string | null;
}

/** Owners and admins manage every key of the workspace; other members only their own. */
const seesAllKeys = (principal: Principal) => roleAllows(principal.role, "team.manage");

/** The workspace's active keys the principal may see (all for owners and admins, else their own), newest first. */
export async function listApiKeys(principal: Principal): Promise<ApiKeySummary[]> {
  const keys = await getDb().apiKey.findMany({
    where: { workspaceId: principal.workspaceId, revokedAt: null, ...(seesAllKeys(principal) ? {} : { createdById: principal.userId }) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { createdBy: { select: { id: true, name: true, email: true } } },
  });
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    partialKey: k.partialKey,
    scopes: k.scopes,
    createdBy: k.createdBy,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  }));
}

/** The scopes the principal may put on a new key (capped by their role). */
export function grantableScopes(principal: Principal): Scope[] {
  return scopesForRole(principal.role);
}

/**
 * Creates a key bound to the principal's active workspace, acting as the principal.
 * Needs the paid plan (the trial covers the dashboard only). The secret is returned once.
 */
export async function createApiKeyFor(
  principal: Principal,
  input: { name: string; scopes?: string[] },
): Promise<{ id: string; key: string; partialKey: string; scopes: Scope[] }> {
  if (principal.scopes !== null) throw new AppError("forbidden", "API keys are created from the dashboard or with an unscoped key");
  const workspace = await getDb().workspace.findUnique({ where: { id: principal.workspaceId }, select: { plan: true, trialEndsAt: true } });
  if (!workspace) throw notFound("Workspace");
  if (!planStatus(workspace).apiAccess) {
    throw new AppError("subscription_required", "API keys need the Pro plan: the free trial covers the dashboard only");
  }
  return createApiKey({ workspaceId: principal.workspaceId, userId: principal.userId, name: input.name, scopes: input.scopes });
}

/** Revokes a key of the active workspace: any key for owners and admins, else only one's own (others are 404). */
export async function revokeApiKeyFor(principal: Principal, keyId: string): Promise<void> {
  const key = await getDb().apiKey.findFirst({
    where: { id: keyId, workspaceId: principal.workspaceId, ...(seesAllKeys(principal) ? {} : { createdById: principal.userId }) },
    select: { id: true },
  });
  if (!key) throw notFound("API key");
  await revokeApiKey(key.id, { workspaceId: principal.workspaceId });
}
