import { queryRows } from "@/lib/db/client";
import { type OutboxEvent, sendEvent } from "@/lib/jobs/outbox";
import type { FlowTrigger } from "./flow-template";
import { AUTOMATION_FLOW_EVENT, type AutomationFlowJobData } from "./job-events";

/**
 * The job that runs one flow for one trigger. One job per flow: a flow whose POST keeps failing is retried and
 * fails on its own, never holding back the others of the same event or minute. Its id deduplicates.
 */
export function flowRunJob(workspaceId: string, flowId: string, trigger: FlowTrigger): OutboxEvent {
  const data: AutomationFlowJobData = { workspaceId, flowIds: [flowId], trigger };
  return { name: AUTOMATION_FLOW_EVENT, id: `automation-flow-${flowId}-${trigger.id}`, data: data as unknown as Record<string, unknown> };
}

/** Queues a job per flow and trigger (the schedule job's claimed occurrences, a failed run of the operator command). */
export async function queueFlowRuns(runs: { workspaceId: string; flowId: string; trigger: FlowTrigger }[]): Promise<void> {
  await sendEvent(runs.map((r) => flowRunJob(r.workspaceId, r.flowId, r.trigger)));
}

/**
 * Called by emitEvent for every new event: queues the workspace's flows triggered by its kind, a job
 * per flow. `automation.event` never triggers flows, so a flow's own event cannot start flows again.
 */
export async function queueFlowsForEvent(workspaceId: string, trigger: FlowTrigger, knownFlowIds?: string[]): Promise<void> {
  if (trigger.type === "automation.event") return;
  const flows = knownFlowIds
    ? knownFlowIds.map((id) => ({ id }))
    : await queryRows<{ id: string }>(`SELECT id FROM automation_flows WHERE "workspaceId" = $1::text AND "triggerKind" = 'event' AND "eventType" = $2::text`, [
        workspaceId,
        trigger.type,
      ]);
  await queueFlowRuns(flows.map((f) => ({ workspaceId, flowId: f.id, trigger })));
}
