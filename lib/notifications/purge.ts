import { getDb } from "@/lib/db/client";
import { getConfig } from "@/lib/services";

const DAY_MS = 86_400_000;
/** Rows deleted per statement, so one purge after a long pause never holds a huge delete. */
const BATCH = 1000;

/**
 * Deletes notifications created more than `retentionDays` ago, with their deliveries: those sent
 * (fanned out), and those never fanned out, which the sweep stops re-queueing after a day (the
 * retention is at least one day, so nothing still in flight is touched). Their dedupe keys go with
 * them, which is harmless: sources record within minutes of the event. Run by the daily purge job.
 */
export async function purgeOldNotifications(
  now = new Date(),
  retentionDays = getConfig().notifications.retentionDays,
): Promise<{ notifications: number; deliveries: number }> {
  const before = new Date(now.getTime() - Math.max(1, retentionDays) * DAY_MS);
  const db = getDb();
  let notifications = 0;
  let deliveries = 0;
  for (;;) {
    const batch = await db.notification.findMany({ where: { createdAt: { lt: before } }, select: { id: true }, orderBy: { createdAt: "asc" }, take: BATCH });
    if (batch.length === 0) break;
    const ids = batch.map((n) => n.id);
    deliveries += (await db.notificationDelivery.deleteMany({ where: { notificationId: { in: ids } } })).count;
    notifications += (await db.notification.deleteMany({ where: { id: { in: ids } } })).count;
    if (batch.length < BATCH) break;
  }
  return { notifications, deliveries };
}
