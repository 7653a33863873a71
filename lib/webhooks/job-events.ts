/** The job event that starts the delivery of one dispatch (inngest/functions/webhook-deliver.ts). */
export const WEBHOOK_DELIVER_EVENT = "webhook/deliver";

export interface WebhookDeliverData {
  dispatchId: string;
  workspaceId: string;
}
