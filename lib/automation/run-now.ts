import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { queueFlowRuns } from "./flow-trigger";
import { claimDueSchedules, runFlow, type FlowRunResult } from "./flows";
import { evaluateWorkspaceRules } from "./run";

/**
 * `admin automation run`: what the hourly rules job and the schedule job do for one workspace,
 * now (rules for the current hour of the ad account's clock, once per hour as always; a rule another
 * evaluation is acting on is waited for, then answers its run; schedule flows whose occurrence has come).
 */
export async function runAutomationNow(workspaceId: string, ruleId?: string) {
  const workspace = await getDb().workspace.findUnique({ where: { id: workspaceId }, select: { id: true } });
  if (!workspace) throw notFound("Workspace");
  const rules = await evaluateWorkspaceRules(workspaceId, ruleId);
  const flows: (FlowRunResult | { flowId: string; status: "failed"; error: string })[] = [];
  for (const due of await claimDueSchedules(new Date(), workspaceId)) {
    try {
      flows.push(await runFlow(due.flowId, due.trigger));
    } catch (err) {
      // The occurrence is claimed: its job retries it, as the schedule job's would.
      await queueFlowRuns([due]);
      flows.push({ flowId: due.flowId, status: "failed", error: err instanceof Error ? err.message : String(err) });
    }
  }
  return { workspaceId, rules, flows };
}
