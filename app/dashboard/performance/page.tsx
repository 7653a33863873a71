import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/misc";
import { can } from "@/lib/auth/authorize";
import { requirePrincipal } from "@/lib/dashboard/current";
import { planStatus } from "@/lib/workspaces/plan";
import { PerformanceOverview } from "./performance-overview";

export const metadata: Metadata = { title: "Performance" };
export const dynamic = "force-dynamic";

export default async function PerformancePage() {
  const principal = await requirePrincipal();
  if (!planStatus(principal.workspace).dashboardAccess) {
    return (
      <EmptyState title="Choose a plan to see performance" action={<Link className={buttonClass()} href="/dashboard/settings/plan">See plans</Link>}>
        Performance opens again as soon as the workspace is on a plan.
      </EmptyState>
    );
  }
  if (!can(principal, "ads.read")) return <EmptyState title="No access to performance">Your role does not include viewing ads; ask a workspace admin.</EmptyState>;
  return <PerformanceOverview canWrite={can(principal, "ads.write")} />;
}
