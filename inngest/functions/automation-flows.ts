import { inngest } from "@/inngest/client";
import { queueFlowRuns } from "@/lib/automation/flow-trigger";
import { claimDueSchedules, runFlow } from "@/lib/automation/flows";
import { AUTOMATION_FLOW_EVENT, type AutomationFlowJobData } from "@/lib/automation/job-events";

/**
 * One flow for one trigger (an event, or a schedule's occurrence), retried when its POST fails. Jobs queued
 * before jobs were one per flow may name several flows: each is a step of its own.
 */
export const automationFlowRun = inngest.createFunction(
  { id: "automation-flow-run", name: "Run automation flows of an event", triggers: [{ event: AUTOMATION_FLOW_EVENT }], retries: 3 },
  async ({ event, step }) => {
    const { flowIds, trigger } = event.data as AutomationFlowJobData;
    const results = [];
    for (const flowId of flowIds) results.push(await step.run(`flow-${flowId}`, () => runFlow(flowId, trigger)));
    return { results };
  },
);

/**
 * Every minute: schedule flows whose occurrence has come, each queued as its own job (a failing flow of one
 * workspace holds back no other). The claim is a step, so a killed run queues the same list.
 */
export const automationFlowSchedules = inngest.createFunction(
  { id: "automation-flow-schedules", name: "Run scheduled automation flows", triggers: [{ cron: "* * * * *" }], retries: 3 },
  async ({ step }) => {
    const due = await step.run("claim-due", () => claimDueSchedules(new Date()));
    if (due.length) await step.run("queue-due", () => queueFlowRuns(due));
    return { fired: due.length };
  },
);
