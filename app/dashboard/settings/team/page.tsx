import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/misc";
import { requirePrincipal } from "@/lib/dashboard/current";
import { teamPage } from "@/lib/read-models/team";
import { TeamManager } from "./team-manager";

export const metadata: Metadata = { title: "Team" };
export const dynamic = "force-dynamic";

export default async function TeamPage() {
  const principal = await requirePrincipal();
  const { canManage, members, invites, folders, emailTransport } = await teamPage(principal);
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
        emailTransport={emailTransport}
      />
    </>
  );
}
