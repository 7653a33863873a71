import { getDb } from "@/lib/db/client";

/** How long the delivery log, and the events it can redeliver, are kept. */
export const WEBHOOK_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Deletes delivery-log entries, finished dispatches and events older than the retention window. */
export async function purgeWebhookHistory(now = new Date()): Promise<{ deliveries: number; dispatches: number; events: number }> {
  const before = new Date(now.getTime() - WEBHOOK_LOG_RETENTION_MS);
  const db = getDb();
  const deliveries = await db.webhookDelivery.deleteMany({ where: { createdAt: { lt: before } } });
  const dispatches = await db.webhookDispatch.deleteMany({ where: { createdAt: { lt: before }, status: { in: ["succeeded", "failed", "cancelled"] } } });
  const active = await db.webhookDispatch.findMany({ where: { createdAt: { lt: before } }, select: { eventId: true } });
  const events = await db.webhookEvent.deleteMany({
    where: { createdAt: { lt: before }, ...(active.length ? { id: { notIn: active.map((d) => d.eventId) } } : {}) },
  });
  return { deliveries: deliveries.count, dispatches: dispatches.count, events: events.count };
}
