import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState, PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/auth/authorize";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/workspaces/plan";
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
        <EmptyState title="Choose a plan to moderate comments" action={<Link className={buttonClass()} href="/dashboard/settings/plan">See plans</Link>}>
          The inbox opens again as soon as the workspace is on a plan.
        </EmptyState>
      </>
    );
  }
  if (!can(principal, "comments.moderate")) {
    return (
      <>
        {header}
        <EmptyState title="Your role cannot moderate comments">Ask a workspace owner, admin or editor to look after the inbox.</EmptyState>
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
