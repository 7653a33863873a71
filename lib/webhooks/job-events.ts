/** The job event that runs the retry chain of one dispatch after its first attempt failed (inngest/functions/webhook-deliver.ts). */
export const WEBHOOK_DELIVER_EVENT = "webhook/deliver";

export interface WebhookDeliverData {
  dispatchId: string;
  workspaceId: string;
}

/**
 * The retry chain's job event; its id deduplicates, so queueing it again is harmless. (Before first
 * attempts were sent by lib/webhooks/first-attempts.ts, every dispatch had a job with the id
 * `webhook-deliver-<dispatch>`; a new id keeps those old events from swallowing a retry chain.)
 */
export function retryChainJobEvent(data: WebhookDeliverData): { id: string; name: string; data: Record<string, unknown> } {
  return { name: WEBHOOK_DELIVER_EVENT, id: `webhook-retries-${data.dispatchId}`, data: { dispatchId: data.dispatchId, workspaceId: data.workspaceId } };
}
