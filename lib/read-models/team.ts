import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/roles";
import { listInvites } from "@/lib/team/invites";
import { listMembers, listWorkspaceFolders } from "@/lib/team/manage";

export type { InviteSummary } from "@/lib/team/invites";
export type { MemberSummary } from "@/lib/team/manage";

/** The Team page: members, the folders access can be limited to, and (for those who manage the team, as the team tools require) pending invites. */
export async function teamPage(principal: Principal) {
  const canManage = roleAllows(principal.role, "team.manage");
  const [members, invites, folders] = await Promise.all([
    listMembers(principal),
    canManage ? listInvites(principal) : Promise.resolve([]),
    listWorkspaceFolders(principal),
  ]);
  return { canManage, members, invites, folders };
}

/** The workspace's members (every member sees the team: assignees, reviewers). */
export const workspaceMembers = listMembers;
