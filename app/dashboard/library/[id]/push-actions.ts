"use server";
import { runTool } from "@/lib/dashboard/tool-action";

// Sending a creative to an ad account is a tool call (the same checks as the API); see lib/dashboard/tool-action.ts.

export async function loadPushesAction(creativeId: string) {
  return runTool("list_creative_pushes", { creativeId });
}

export async function loadAdAccountsAction() {
  return runTool("list_connected_ad_accounts", {});
}

export async function sendToAdAccountAction(creativeId: string, adAccountId: string) {
  return runTool("send_creative_to_ad_account", { creativeId, adAccountId });
}
