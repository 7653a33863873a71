import { getDb } from "@/lib/db/client";
import { queueDispatch } from "@/lib/events/emit";

/** A dispatch still "pending" this long after creation was stored but its job never started. */
const STUCK_AFTER_MS = 2 * 60 * 1000;

/**
 * Re-queues dispatches whose delivery job was never started (the process died between storing
 * the event and queueing it). The job event id deduplicates, so a dispatch already running is untouched.
 */
export async function requeueStuckDispatches(now = new Date()): Promise<number> {
  const stuck = await getDb().webhookDispatch.findMany({
    where: { status: "pending", attempts: 0, createdAt: { lt: new Date(now.getTime() - STUCK_AFTER_MS) } },
    select: { id: true, workspaceId: true },
    take: 500,
  });
  for (const d of stuck) await queueDispatch({ dispatchId: d.id, workspaceId: d.workspaceId });
  return stuck.length;
}
