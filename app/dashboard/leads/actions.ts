"use server";
import { authorize } from "@/lib/auth/authorize";
import { runAsPrincipal } from "@/lib/dashboard/action-result";
import { pullWorkspaceLeads } from "@/lib/leads/pull";

/** "Check for new leads": one poll of the workspace's forms now, as the scheduled job does. */
export async function pullLeadsNow(): Promise<void> {
  await runAsPrincipal(async (principal) => {
    authorize(principal, "ads.read");
    await pullWorkspaceLeads(principal.workspaceId);
  }, "/dashboard/leads");
}
