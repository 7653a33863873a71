import type { Metadata } from "next";
import { NoAccess, PlanRequired } from "@/components/dashboard/page-gates";
import { can } from "@/lib/dashboard/access";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/dashboard/access";
import { PerformanceOverview } from "./performance-overview";

export const metadata: Metadata = { title: "Performance" };
export const dynamic = "force-dynamic";

export default async function PerformancePage() {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return <PlanRequired title="Choose a plan to see performance">Performance opens again as soon as the workspace is on a plan.</PlanRequired>;
  }
  if (!can(principal, "ads.read")) return <NoAccess title="No access to performance">Your role does not include viewing ads; ask a workspace admin.</NoAccess>;
  return <PerformanceOverview canWrite={can(principal, "ads.write")} />;
}
