import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { claimDueSchedules, runFlow, type FlowRunResult } from "./flows";
import { evaluateWorkspaceRules } from "./run";

/**
 * `admin automation run`: what the hourly rules job and the schedule job do for one workspace,
 * now (rules for the current hour of the ad account's clock, once per hour as always; schedule
 * flows whose occurrence has come).
 */
export async function runAutomationNow(workspaceId: string, ruleId?: string) {
  const workspace = await getDb().workspace.findUnique({ where: { id: workspaceId }, select: { id: true } });
  if (!workspace) throw notFound("Workspace");
  const rules = await evaluateWorkspaceRules(workspaceId, ruleId);
  const flows: (FlowRunResult | { flowId: string; status: "failed"; error: string })[] = [];
  for (const { flowId, trigger } of await claimDueSchedules(new Date(), workspaceId)) {
    try {
      flows.push(await runFlow(flowId, trigger));
    } catch (err) {
      flows.push({ flowId, status: "failed", error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { workspaceId, rules, flows };
}
