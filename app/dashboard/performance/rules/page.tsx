import type { Metadata } from "next";
import { NoAccess, PlanRequired } from "@/components/dashboard/page-gates";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/dashboard/access";
import { RulesEditor } from "./rules-editor";

export const metadata: Metadata = { title: "Automation rules" };
export const dynamic = "force-dynamic";

export default async function RulesPage() {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return <PlanRequired title="Choose a plan to automate ads">Rules open again as soon as the workspace is on a plan.</PlanRequired>;
  }
  if (!can(principal, "ads.read")) {
    return <NoAccess title="No access to automation">Your role does not include viewing ads; ask a workspace admin.</NoAccess>;
  }
  return (
    <>
      <h2 className="text-lg font-semibold text-slate-900">Automation rules</h2>
      <p className="mb-6 mt-1 max-w-2xl text-sm text-slate-600">
        Rules check your ads&apos; numbers every hour and pause, activate or re-budget what matches. Flows send a signed webhook when something happens or on a
        schedule.
      </p>
      <RulesEditor
        canManage={can(principal, "rules.manage")}
        canLaunch={can(principal, "ads.launch")}
        canManageFlows={can(principal, "rules.manage") && can(principal, "webhooks.write")}
      />
    </>
  );
}
