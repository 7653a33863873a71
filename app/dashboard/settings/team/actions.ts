"use server";
import { dashboardOrigin } from "@/lib/dashboard/origin";
import type { Role } from "@/lib/generated/prisma/enums";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { createInvite, revokeInvite } from "@/lib/team/invites";
import { removeMember, updateMember } from "@/lib/team/manage";

export async function inviteAction(input: { email: string; role: Role; folderIds: string[] }) {
  const base = await dashboardOrigin();
  return runAsPrincipal(async (p) => {
    const invite = await createInvite(p, { ...input, baseUrl: base });
    return { url: invite.url, expiresAt: invite.expiresAt, emailed: invite.emailed };
  }, "/dashboard/settings/team");
}

export async function revokeInviteAction(inviteId: string) {
  return runAsPrincipal((p) => revokeInvite(p, inviteId), "/dashboard/settings/team");
}

export async function updateMemberAction(userId: string, input: { role: Role; folderIds: string[] }) {
  return runAsPrincipal((p) => updateMember(p, userId, input), "/dashboard/settings/team");
}

export async function removeMemberAction(userId: string) {
  return runAsPrincipal((p) => removeMember(p, userId), "/dashboard/settings/team");
}
