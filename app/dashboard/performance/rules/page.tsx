import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState, PageHeader } from "@/components/ui/misc";
import { can } from "@/lib/auth/authorize";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/workspaces/plan";
import { RulesEditor } from "./rules-editor";

export const metadata: Metadata = { title: "Automation rules" };
export const dynamic = "force-dynamic";

export default async function RulesPage() {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <>
        <PageHeader title="Automation rules" />
        <EmptyState title="Choose a plan to automate ads" action={<Link className={buttonClass()} href="/dashboard/settings/plan">See plans</Link>}>
          Rules open again as soon as the workspace is on a plan.
        </EmptyState>
      </>
    );
  }
  if (!can(principal, "ads.read")) {
    return (
      <>
        <PageHeader title="Automation rules" />
        <EmptyState title="No access to automation">Your role does not include viewing ads; ask a workspace admin.</EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Automation rules"
        description="Rules check your ads' numbers every hour and pause, activate or re-budget what matches. Flows send a signed webhook when something happens or on a schedule."
      />
      <RulesEditor canManage={can(principal, "rules.manage")} canLaunch={can(principal, "ads.launch")} canManageFlows={can(principal, "rules.manage") && can(principal, "webhooks.write")} />
    </>
  );
}
