import type { Metadata } from "next";
import { PlanRequired } from "@/components/dashboard/page-gates";
import { PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { listVisibleFolders } from "@/lib/read-models/library";
import { planStatus } from "@/lib/dashboard/access";
import { UploadsWorkspace } from "./uploads-workspace";

export const metadata: Metadata = { title: "Uploads" };
export const dynamic = "force-dynamic";

export default async function UploadsPage({ searchParams }: { searchParams: Promise<{ folder?: string }> }) {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <PlanRequired page="Uploads" title="Choose a plan to upload">
        Uploading opens again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  const folders = await listVisibleFolders(principal);
  return (
    <>
      <PageHeader title="Uploads" description="Each file becomes a job that pushes it to your ad account; completed files land in the library." />
      <UploadsWorkspace
        folders={folders}
        canUpload={can(principal, "uploads.create")}
        role={principal.role}
        mustPickFolder={principal.folderIds !== null}
        initialFolderId={(await searchParams).folder ?? null}
      />
    </>
  );
}
