import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Alert, EmptyState, PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/auth/authorize";
import { requirePrincipal } from "@/lib/dashboard/current";
import { loadLibrary } from "@/lib/session/library-view";
import { planStatus } from "@/lib/workspaces/plan";
import { LibraryGrid } from "./library-grid";
import { ReviewStatusFilter } from "@/components/review/review-status-filter";
import { filterByReviewStatus } from "@/lib/review/status";
import { REVIEW_STATUSES, type ReviewStatusValue } from "@/lib/review/schemas";

export const metadata: Metadata = { title: "Library" };
export const dynamic = "force-dynamic";

export default async function LibraryPage({ searchParams }: { searchParams: Promise<{ folder?: string; welcome?: string; review?: string }> }) {
  const principal = await requirePrincipal();
  const params = await searchParams;
  const plan = planStatus(principal.workspace);
  if (!plan.dashboardAccess) {
    return (
      <>
        <PageHeader title="Library" />
        <EmptyState title="Choose a plan to open your library" action={<Link className={buttonClass()} href="/dashboard/settings/plan">See plans</Link>}>
          Your creatives are safe. The library opens again as soon as the workspace is on a plan.
        </EmptyState>
      </>
    );
  }
  const library = await loadLibrary(principal);
  const { folders, truncated } = library;
  const review = REVIEW_STATUSES.includes(params.review as ReviewStatusValue) ? (params.review as ReviewStatusValue) : null;
  const creatives = review ? await filterByReviewStatus(principal.workspaceId, library.creatives, review) : library.creatives;
  return (
    <>
      <PageHeader
        title="Library"
        description={`${creatives.length.toLocaleString("en-US")} creative${creatives.length === 1 ? "" : "s"} in ${principal.workspace.name}`}
        actions={
          can(principal, "uploads.create") ? (
            <Link href="/dashboard/uploads" className={buttonClass()}>
              Upload files
            </Link>
          ) : undefined
        }
      />
      {params.welcome && (
        <div className="mb-6">
          <Alert tone="green">Welcome to Adloom! Your workspace is ready and your 14-day trial has started. Upload your first creatives to begin.</Alert>
        </div>
      )}
      {truncated && (
        <div className="mb-6">
          <Alert tone="amber">Showing the newest {creatives.length.toLocaleString("en-US")} creatives. Pick a folder or search to narrow the library.</Alert>
        </div>
      )}
      <ReviewStatusFilter current={review} params={{ folder: params.folder }} />
      {creatives.length === 0 && folders.length === 0 ? (
        <EmptyState
          title="Your library is empty"
          action={can(principal, "uploads.create") ? <Link href="/dashboard/uploads" className={buttonClass()}>Upload your first creatives</Link> : undefined}
        >
          Images and videos you upload are pushed to your ad account and land here, ready for copy.
        </EmptyState>
      ) : (
        <LibraryGrid
          creatives={creatives}
          folders={folders}
          initialFolder={params.folder ?? null}
          canDelete={can(principal, "creatives.delete")}
          canCreateFolder={can(principal, "folders.write")}
        />
      )}
    </>
  );
}
