import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/generated/prisma/enums";
import { planStatus, type PlanState } from "./plan";

export interface WorkspaceSummary {
  id: string;
  name: string;
  role: Role;
  planState: PlanState;
}

/** The active workspaces a user belongs to, oldest membership first (for the switcher). */
export async function listUserWorkspaces(userId: string): Promise<WorkspaceSummary[]> {
  const memberships = await getDb().membership.findMany({
    where: { userId, workspace: { status: "active" } },
    orderBy: { createdAt: "asc" },
    select: { role: true, workspace: { select: { id: true, name: true, plan: true, trialEndsAt: true } } },
  });
  return memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role, planState: planStatus(m.workspace).state }));
}

/** Whether the user is an active member of the workspace (the switcher only accepts those). */
export async function isActiveMember(userId: string, workspaceId: string): Promise<boolean> {
  const count = await getDb().membership.count({ where: { userId, workspaceId, workspace: { status: "active" } } });
  return count > 0;
}
