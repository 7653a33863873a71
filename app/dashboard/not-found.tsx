import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState, PageHeader } from "@/components/ui/misc";

/** A missing (or another workspace's) item inside the dashboard: the app's frame stays, with a way back. */
export default function DashboardNotFound() {
  return (
    <>
      <PageHeader title="Not found" />
      <EmptyState
        title="This item does not exist in your workspace"
        action={
          <Link href="/dashboard/library" className={buttonClass()}>
            Back to the library
          </Link>
        }
      >
        It may have been deleted, or it belongs to another workspace. Check the link, or switch workspace from the menu.
      </EmptyState>
    </>
  );
}
