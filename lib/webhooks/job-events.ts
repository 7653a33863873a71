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
 * A chain started again for a dispatch stuck after `stuckAfterAttempts` attempts gets an id of its own:
 * the first one's event was processed (its run died), and the same id would be dropped as a repeat.
 */
export function retryChainJobEvent(data: WebhookDeliverData, stuckAfterAttempts?: number): { id: string; name: string; data: Record<string, unknown> } {
  const id = `webhook-retries-${data.dispatchId}${stuckAfterAttempts === undefined ? "" : `-after-${stuckAfterAttempts}`}`;
  return { name: WEBHOOK_DELIVER_EVENT, id, data: { dispatchId: data.dispatchId, workspaceId: data.workspaceId } };
}
