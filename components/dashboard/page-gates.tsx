import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";
import { EmptyState, PageHeader } from "@/components/ui/misc";

/**
 * What a page shows instead of itself while the workspace has no plan: its data is kept, the way back is one click.
 * `page` is the page's heading; leave it out where a layout already shows one (a tab of an area).
 */
export function PlanRequired({ page, title, children }: { page?: string; title: string; children: ReactNode }) {
  return (
    <>
      {page && <PageHeader title={page} />}
      <EmptyState
        title={title}
        action={
          <Link className={buttonClass()} href="/dashboard/settings/plan">
            See plans
          </Link>
        }
      >
        {children}
      </EmptyState>
    </>
  );
}

/** What a page shows when the member's role does not include it. */
export function NoAccess({ page, title, children }: { page?: string; title: string; children: ReactNode }) {
  return (
    <>
      {page && <PageHeader title={page} />}
      <EmptyState title={title}>{children}</EmptyState>
    </>
  );
}
