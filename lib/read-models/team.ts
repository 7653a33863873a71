import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/roles";
import { TASK_COMPLETE_PERMISSION } from "@/lib/tasks/task-schema";
import { mailTransport } from "@/lib/mail/send-mail";
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
  // Where invite emails go: the page says "waits in the outbox" rather than "we emailed" without an SMTP server.
  return { canManage, members, invites, folders, emailTransport: mailTransport() };
}

/** The workspace's members (every member sees the team: assignees, reviewers). */
export const workspaceMembers = listMembers;

/** Members a task may be assigned to: those whose role can complete it (the rule create_task enforces). */
export async function taskAssignees(principal: Principal) {
  return (await listMembers(principal)).filter((m) => roleAllows(m.role, TASK_COMPLETE_PERMISSION));
}
