import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PlanRequired } from "@/components/dashboard/page-gates";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/dashboard/access";
import { toWire } from "@/lib/dashboard/board-wire";
import { boardPageData } from "@/lib/dashboard/boards-page";
import { BoardCanvas } from "./board-canvas";

export const metadata: Metadata = { title: "Board" };
export const dynamic = "force-dynamic";

export default async function BoardPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <PlanRequired page="Boards" title="Choose a plan to open boards">
        Boards open again as soon as the workspace is on a plan.
      </PlanRequired>
    );
  }
  const data = await boardPageData(principal, id);
  if (!data) notFound();
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/dashboard/boards" className="text-indigo-700 underline-offset-2 hover:underline">
          Boards
        </Link>
      </nav>
      <BoardCanvas initialWire={toWire(data.page)} canWrite={data.canWrite} canAnnotate={data.canAnnotate} canShare={data.canShare} />
    </>
  );
}
