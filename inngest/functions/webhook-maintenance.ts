import { inngest } from "@/inngest/client";
import { purgeWebhookHistory } from "@/lib/webhooks/purge";
import { requeueStuckDispatches } from "@/lib/webhooks/sweep";

/** Every 10 minutes: re-queues deliveries whose job never started, and drops log entries and events older than 7 days. */
export const webhookMaintenance = inngest.createFunction(
  { id: "webhook-maintenance", name: "Webhook log purge and stuck-delivery sweep", triggers: [{ cron: "*/10 * * * *" }], retries: 2 },
  async ({ step }) => {
    const requeued = await step.run("requeue-stuck-dispatches", () => requeueStuckDispatches());
    const purged = await step.run("purge-old-deliveries", () => purgeWebhookHistory());
    return { requeued, purged };
  },
);
