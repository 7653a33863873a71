import type { Metadata } from "next";
import { NoAccess, PlanRequired } from "@/components/dashboard/page-gates";
import { PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/dashboard/access";
import { ModerationWorkspace } from "./moderation-workspace";

export const metadata: Metadata = { title: "Moderation" };
export const dynamic = "force-dynamic";

export default async function ModerationPage() {
  const principal = await requirePrincipal();
  const header = (
    <PageHeader
      title="Moderation"
      description="Comments people leave on your published ads, pulled from the platforms every five minutes. Hide, reply or delete them here (it happens on the platform), and let keyword rules hide the worst automatically."
    />
  );
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <>
        {header}
        <PlanRequired title="Choose a plan to moderate comments">The inbox opens again as soon as the workspace is on a plan.</PlanRequired>
      </>
    );
  }
  if (!can(principal, "comments.moderate")) {
    return (
      <>
        {header}
        <NoAccess title="Your role cannot moderate comments">Ask a workspace owner, admin or editor to look after the inbox.</NoAccess>
      </>
    );
  }
  return (
    <>
      {header}
      <ModerationWorkspace />
    </>
  );
}
