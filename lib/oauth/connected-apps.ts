import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { revokeGrant } from "./tokens";

export interface ConnectedApp {
  /** The grant's id: what Revoke ends. */
  id: string;
  clientName: string;
  clientUri: string | null;
  user: { id: string; name: string; email: string };
  workspaceName: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

/** Like API keys: owners and admins see and revoke every connection of the workspace, others their own. */
const seesAll = (principal: Principal) => roleAllows(principal.role, "team.manage");

/** The workspace's OAuth connections (active grants) the principal may see, newest first. */
export async function listConnectedApps(principal: Principal): Promise<ConnectedApp[]> {
  const db = getDb();
  const grants = await db.oAuthGrant.findMany({
    where: { workspaceId: principal.workspaceId, revokedAt: null, ...(seesAll(principal) ? {} : { userId: principal.userId }) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { client: { select: { name: true, clientUri: true } } },
    take: 200,
  });
  const users = await db.user.findMany({ where: { id: { in: [...new Set(grants.map((g) => g.userId))] } }, select: { id: true, name: true, email: true } });
  const byId = new Map(users.map((u) => [u.id, u]));
  return grants.map((g) => ({
    id: g.id,
    clientName: g.client.name,
    clientUri: g.client.clientUri,
    user: byId.get(g.userId) ?? { id: g.userId, name: "Former member", email: "" },
    workspaceName: principal.workspace.name,
    scopes: g.scopes,
    createdAt: g.createdAt.toISOString(),
    lastUsedAt: g.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Revokes the connection: its access and refresh tokens stop working at once. */
export async function revokeConnectedApp(principal: Principal, grantId: string): Promise<void> {
  const db = getDb();
  const grant = await db.oAuthGrant.findFirst({
    where: { id: grantId, workspaceId: principal.workspaceId, revokedAt: null, ...(seesAll(principal) ? {} : { userId: principal.userId }) },
    select: { id: true },
  });
  if (!grant) throw notFound("Connected app");
  await revokeGrant(db, grant.id);
}
