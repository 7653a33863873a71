import { queryRows } from "@/lib/db/client";
import { sendEvent } from "@/lib/jobs/outbox";
import type { FlowTrigger } from "./flow-template";
import { AUTOMATION_FLOW_EVENT, type AutomationFlowJobData } from "./job-events";

/**
 * Called by emitEvent for every new event: queues the workspace's flows triggered by its kind
 * (one job per event; its id deduplicates). `automation.event` never triggers flows, so a flow's
 * own event cannot start flows again.
 */
export async function queueFlowsForEvent(workspaceId: string, trigger: FlowTrigger, knownFlowIds?: string[]): Promise<void> {
  if (trigger.type === "automation.event") return;
  const flows = knownFlowIds
    ? knownFlowIds.map((id) => ({ id }))
    : await queryRows<{ id: string }>(`SELECT id FROM automation_flows WHERE "workspaceId" = $1::text AND "triggerKind" = 'event' AND "eventType" = $2::text`, [
        workspaceId,
        trigger.type,
      ]);
  if (!flows.length) return;
  const data: AutomationFlowJobData = { workspaceId, flowIds: flows.map((f) => f.id), trigger };
  await sendEvent({ name: AUTOMATION_FLOW_EVENT, id: `automation-flows-${trigger.id}`, data: data as unknown as Record<string, unknown> });
}
