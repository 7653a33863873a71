import type { Metadata } from "next";
import { PlanRequired } from "@/components/dashboard/page-gates";
import { PageHeader } from "@/components/ui/misc";
import { can, planStatus } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { oauthStorageSetup } from "@/lib/dashboard/storage-oauth";
import { listVisibleFolders } from "@/lib/read-models/library";
import { ImportWorkspace } from "./import-workspace";

export const metadata: Metadata = { title: "Import" };
export const dynamic = "force-dynamic";

export default async function ImportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <PlanRequired page="Import" title="Choose a plan to import">
        Importing opens again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  const folders = await listVisibleFolders(principal);
  // The OAuth callback comes back here with ?connected=<id> or ?error=<why>.
  const query = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
  return (
    <>
      <PageHeader
        title="Import"
        description="Bring creatives in from Google Drive, Dropbox, a bucket or public links: pick files once, or watch a folder so new files arrive on their own. Each file becomes an upload; files imported before are skipped."
      />
      <ImportWorkspace
        folders={folders}
        canImport={can(principal, "imports.run")}
        mustPickFolder={principal.folderIds !== null}
        oauth={oauthStorageSetup()}
        connectedId={first(query.connected)}
        connectError={first(query.error)}
      />
    </>
  );
}
