import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { getConfig } from "@/lib/services";
import { createInvite, revokeInvite } from "@/lib/team/invites";
import { removeMember, updateMember } from "@/lib/team/manage";
import { defineTool } from "../types";
import { idArg } from "./shared";

const role = z.enum(ROLES as ["owner", "admin", "editor", "viewer"]).describe("owner, admin, editor or viewer (only owners grant owner)");
const folderIds = z.array(idArg("Folder")).max(200).describe("Folders the member is limited to; empty: the whole library");
const Done = z.object({ ok: z.literal(true) });

export const teamTools = [
  defineTool({
    name: "invite_member",
    title: "Invite member",
    description:
      "Invites someone by email to the workspace with a role (and optionally limited to folders). The invite link (url, valid 7 days, works once) is returned and emailed; the emailed copy also carries a secret that proves the invitee's address, so an account whose address is not yet confirmed joins only through the email (or after confirming it). A new invite to the same email replaces the old one.",
    category: "team",
    capability: "team.manage",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ email: z.string().trim().min(3).max(254).describe("Who to invite"), role, folderIds: folderIds.optional() }),
    output: z.object({
      invite: z.object({
        id: z.string(),
        url: z.string().describe("The invite link (its token is shown only here and in the email)"),
        expiresAt: z.string(),
        emailed: z.boolean().describe("false when the email could not be sent; share url yourself"),
      }),
    }),
    handler: async (principal, input) => {
      const invite = await createInvite(principal, { ...input, baseUrl: getConfig().publicBaseUrl });
      return { invite: { id: invite.id, url: invite.url, expiresAt: invite.expiresAt, emailed: invite.emailed } };
    },
  }),
  defineTool({
    name: "revoke_invite",
    title: "Revoke invite",
    description: "Withdraws a pending invite; its link stops working.",
    category: "team",
    capability: "team.manage",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ id: idArg("Invite") }),
    output: Done,
    handler: async (principal, input) => (await revokeInvite(principal, input.id), { ok: true as const }),
  }),
  defineTool({
    name: "update_member",
    title: "Update member",
    description: "Changes a member's role and folder access. Only owners change owners or grant owner; the last owner stays an owner.",
    category: "team",
    capability: "team.manage",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ userId: idArg("User"), role, folderIds }),
    output: Done,
    handler: async (principal, { userId, ...input }) => (await updateMember(principal, userId, input), { ok: true as const }),
  }),
  defineTool({
    name: "remove_member",
    title: "Remove member",
    description:
      "Removes a member from the workspace: their API keys and dashboard sessions stop working here, and they are taken off its tasks. The last owner cannot be removed.",
    category: "team",
    capability: "team.manage",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ userId: idArg("User") }),
    output: Done,
    handler: async (principal, input) => (await removeMember(principal, input.userId), { ok: true as const }),
  }),
];
