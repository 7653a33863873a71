"use server";
import { headers } from "next/headers";
import type { Role } from "@/lib/generated/prisma/enums";
import { getConfig } from "@/lib/services";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { createInvite, revokeInvite } from "@/lib/team/invites";
import { removeMember, updateMember } from "@/lib/team/manage";

/** Absolute origin for links: PUBLIC_BASE_URL when set, else the host this request came to. */
async function origin(): Promise<string> {
  if (process.env.PUBLIC_BASE_URL) return getConfig().publicBaseUrl;
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost";
  return `${h.get("x-forwarded-proto") ?? "http"}://${host}`;
}

export async function inviteAction(input: { email: string; role: Role; folderIds: string[] }) {
  const base = await origin();
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
