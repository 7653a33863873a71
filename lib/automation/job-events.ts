import type { FlowTrigger } from "./flow-template";

/** Job event that runs the event-triggered flows of one event (inngest/functions/automation-flow-run.ts). */
export const AUTOMATION_FLOW_EVENT = "automation/flows.triggered";

export interface AutomationFlowJobData {
  workspaceId: string;
  flowIds: string[];
  /** The event envelope: carried here because an event is not always stored (no endpoint). */
  trigger: FlowTrigger;
}
