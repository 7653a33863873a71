"use server";
import { runTool } from "@/lib/dashboard/tool-action";

/** "Check for new leads": one poll of the workspace's forms now, as the scheduled job does. */
export async function pullLeadsNow(): Promise<void> {
  await runTool("pull_leads", {}, "/dashboard/leads");
}
