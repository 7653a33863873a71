import { inngest } from "@/inngest/client";
import { getConfig } from "@/lib/services";
import { runDispatchAttempt } from "@/lib/webhooks/dispatch";
import { WEBHOOK_DELIVER_EVENT, type WebhookDeliverData } from "@/lib/webhooks/job-events";

/**
 * Delivers one event to the workspace's endpoint: an attempt, one immediate retry, then retries
 * after each wait of WEBHOOK_RETRY_SCHEDULE (durable sleeps, so a restart loses nothing), then
 * gives up. Step retries cover only our own failures (database); the endpoint's are the schedule's.
 */
export const webhookDeliver = inngest.createFunction(
  { id: "webhook-deliver", name: "Deliver a webhook event", triggers: [{ event: WEBHOOK_DELIVER_EVENT }], retries: 3 },
  async ({ event, step }) => {
    const { dispatchId } = event.data as WebhookDeliverData;
    // Waits before attempts 3, 4, ...; attempt 2 is the immediate retry.
    const schedule = getConfig().webhooks.retryScheduleMs;
    const waitBefore = [0, ...schedule];
    const retryIn = (attempt: number) => (attempt <= waitBefore.length ? waitBefore[attempt - 1]! : null);

    let result = await step.run("attempt-1", () => runDispatchAttempt(dispatchId, 1, retryIn(1)));
    for (let attempt = 2; !result.done; attempt++) {
      if (result.nextAttemptAt && attempt > 2) await step.sleepUntil(`wait-before-attempt-${attempt}`, new Date(result.nextAttemptAt));
      result = await step.run(`attempt-${attempt}`, () => runDispatchAttempt(dispatchId, attempt, retryIn(attempt)));
    }
    return { dispatchId, outcome: result.outcome };
  },
);
