import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { roleAllows } from "@/lib/auth/roles";
import { requirePrincipal } from "@/lib/dashboard/current";
import { listInvites } from "@/lib/team/invites";
import { listMembers, listWorkspaceFolders } from "@/lib/team/manage";
import { TeamManager } from "./team-manager";

export const metadata: Metadata = { title: "Team" };
export const dynamic = "force-dynamic";

export default async function TeamPage() {
  const principal = await requirePrincipal();
  const canManage = roleAllows(principal.role, "team.manage");
  const [members, invites, folders] = await Promise.all([
    listMembers(principal),
    canManage ? listInvites(principal) : Promise.resolve([]),
    listWorkspaceFolders(principal),
  ]);
  return (
    <>
      <PageHeader
        title="Team"
        description="Owners and admins manage everything; editors upload, edit copy and build ads but cannot delete or launch; viewers only read. Folder access limits a member's library and uploads to chosen folders."
      />
      <TeamManager
        members={members}
        invites={invites}
        folders={folders}
        canManage={canManage}
        isOwner={principal.role === "owner"}
        currentUserId={principal.userId}
      />
    </>
  );
}
