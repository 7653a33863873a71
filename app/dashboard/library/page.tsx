import type { Metadata } from "next";
import Link from "next/link";
import { PlanRequired } from "@/components/dashboard/page-gates";
import { buttonClass } from "@/components/ui/button";
import { Alert, EmptyState, PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { countCreatives, listUploaders, listVisibleFolders, loadLibraryPage } from "@/lib/read-models/library";
import { planStatus } from "@/lib/dashboard/access";
import { ReviewStatusFilter } from "@/components/review/review-status-filter";
import { LibraryBrowser } from "./library-browser";
import { filtersFromParams } from "./library-filters";
import { UploadFilesLink } from "./upload-files-link";

export const metadata: Metadata = { title: "Library" };
export const dynamic = "force-dynamic";

export default async function LibraryPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const principal = await requirePrincipal();
  const params = await searchParams;
  const plan = planStatus(principal.workspace);
  if (!plan.dashboardAccess) {
    return (
      <PlanRequired page="Library" title="Choose a plan to open your library">
        Your creatives are safe. The library opens again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  const filters = filtersFromParams(params);
  const [firstPage, folders, uploaders, everything] = await Promise.all([
    loadLibraryPage(principal, filters),
    listVisibleFolders(principal),
    listUploaders(principal),
    Object.keys(filters).length ? countCreatives(principal) : null,
  ]);
  const total = everything ?? firstPage.total ?? 0;
  return (
    <>
      <PageHeader
        title="Library"
        description={`${total.toLocaleString("en-US")} creative${total === 1 ? "" : "s"} in ${principal.workspace.name}`}
        actions={can(principal, "uploads.create") ? <UploadFilesLink /> : undefined}
      />
      {params.welcome && (
        <div className="mb-6">
          <Alert tone="green">Welcome to Adloom! Your workspace is ready and your 14-day trial has started. Upload your first creatives to begin.</Alert>
        </div>
      )}
      {total === 0 && folders.length === 0 ? (
        <EmptyState
          title="Your library is empty"
          action={
            can(principal, "uploads.create") ? (
              <Link href="/dashboard/uploads" className={buttonClass()}>
                Upload your first creatives
              </Link>
            ) : undefined
          }
        >
          Images and videos you upload are pushed to your ad account and land here, ready for copy.
        </EmptyState>
      ) : (
        <>
          <ReviewStatusFilter current={filters.reviewStatus ?? null} params={{ ...params, review: undefined }} />
          <LibraryBrowser
            firstPage={firstPage}
            initialFilters={filters}
            folders={folders}
            uploaders={uploaders}
            canDelete={can(principal, "creatives.delete")}
            canMove={can(principal, "creatives.move")}
            canWriteFolders={can(principal, "folders.write")}
            canDeleteFolders={can(principal, "folders.delete")}
          />
        </>
      )}
    </>
  );
}
