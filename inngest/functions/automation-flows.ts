import { inngest } from "@/inngest/client";
import { claimDueSchedules, runFlow } from "@/lib/automation/flows";
import { AUTOMATION_FLOW_EVENT, type AutomationFlowJobData } from "@/lib/automation/job-events";

/** The flows one event triggers: one step per flow, each retried on its own when its POST fails. */
export const automationFlowRun = inngest.createFunction(
  { id: "automation-flow-run", name: "Run automation flows of an event", triggers: [{ event: AUTOMATION_FLOW_EVENT }], retries: 3 },
  async ({ event, step }) => {
    const { flowIds, trigger } = event.data as AutomationFlowJobData;
    const results = [];
    for (const flowId of flowIds) results.push(await step.run(`flow-${flowId}`, () => runFlow(flowId, trigger)));
    return { results };
  },
);

/** Every minute: schedule flows whose occurrence has come. The claim is a step, so a killed run resumes with the same list. */
export const automationFlowSchedules = inngest.createFunction(
  { id: "automation-flow-schedules", name: "Run scheduled automation flows", triggers: [{ cron: "* * * * *" }], retries: 3 },
  async ({ step }) => {
    const due = await step.run("claim-due", () => claimDueSchedules(new Date()));
    for (const { flowId, trigger } of due) await step.run(`flow-${flowId}-${trigger.createdAt}`, () => runFlow(flowId, trigger));
    return { fired: due.length };
  },
);
