"use server";
import type { ActionResult } from "@/lib/dashboard/action-result";
import { runTool } from "@/lib/dashboard/tool-action";
import type { Role } from "@/lib/generated/prisma/enums";

export async function inviteAction(input: {
  email: string;
  role: Role;
  folderIds: string[];
}): Promise<ActionResult<{ url: string; expiresAt: string; emailed: boolean }>> {
  const result = await runTool("invite_member", input, "/dashboard/settings/team");
  if (!result.ok) return result;
  const { url, expiresAt, emailed } = result.data.invite;
  return { ok: true, data: { url, expiresAt, emailed } };
}

export async function revokeInviteAction(inviteId: string) {
  return runTool("revoke_invite", { id: inviteId }, "/dashboard/settings/team");
}

export async function updateMemberAction(userId: string, input: { role: Role; folderIds: string[] }) {
  return runTool("update_member", { userId, ...input }, "/dashboard/settings/team");
}

export async function removeMemberAction(userId: string) {
  return runTool("remove_member", { userId }, "/dashboard/settings/team");
}
