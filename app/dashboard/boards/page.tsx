import type { Metadata } from "next";
import { PlanRequired } from "@/components/dashboard/page-gates";
import { PageHeader } from "@/components/ui/misc";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/dashboard/access";
import { BoardsList } from "./boards-list";
import { BOARDS_PAGE, boardsPageData } from "@/lib/dashboard/boards-page";

export const metadata: Metadata = { title: "Boards" };
export const dynamic = "force-dynamic";

export default async function BoardsPage() {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <PlanRequired page="Boards" title="Choose a plan to open boards">
        Boards open again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  const { boards, nextCursor, canWrite } = await boardsPageData(principal);
  return (
    <>
      <PageHeader
        title="Boards"
        description="Arrange creatives on a canvas with their live figures and review status, group them by label, naming token, ad account or review status in one step, and annotate them."
      />
      <BoardsList initialBoards={boards} initialCursor={nextCursor} pageSize={BOARDS_PAGE} canWrite={canWrite} />
    </>
  );
}
