import { getDb } from "@/lib/db/client";
import { sendEvent } from "@/lib/jobs/outbox";
import { retryChainJobEvent } from "./job-events";

/** A retry due this long ago whose attempt was not logged has no job running it. */
const STUCK_AFTER_MS = 2 * 60 * 1000;

/**
 * Re-queues retry chains whose job is missing (a backstop: the job event commits with the failed
 * first attempt). The job event id deduplicates, so a chain already running is untouched. Pending
 * dispatches need nothing here: the first attempts' loop claims them again once their lease ends.
 */
export async function requeueStuckDispatches(now = new Date()): Promise<number> {
  const stuck = await getDb().webhookDispatch.findMany({
    where: { status: "retrying", nextAttemptAt: { lt: new Date(now.getTime() - STUCK_AFTER_MS) } },
    select: { id: true, workspaceId: true },
    take: 500,
  });
  if (stuck.length) await sendEvent(stuck.map((d) => retryChainJobEvent({ dispatchId: d.id, workspaceId: d.workspaceId })));
  return stuck.length;
}
