import { getDb } from "@/lib/db/client";
import { sendEvent } from "@/lib/jobs/outbox";
import { retryChainJobEvent } from "./job-events";

/** A retry due this long ago whose attempt was not logged has no job running it. */
const STUCK_AFTER_MS = 2 * 60 * 1000;

/**
 * Starts again the retry chains whose job is gone (its run failed for good, or its event never reached
 * the runner). Each gets a job event named after the attempts made so far, so every sweep while the chain
 * stays stuck at that point queues it once; a chain that merely runs late may then send an attempt twice,
 * which receivers deduplicate by event id (docs/webhooks.md). Pending dispatches need nothing here: the
 * first attempts' loop claims them again once their lease ends.
 */
export async function requeueStuckDispatches(now = new Date()): Promise<number> {
  const stuck = await getDb().webhookDispatch.findMany({
    where: { status: "retrying", nextAttemptAt: { lt: new Date(now.getTime() - STUCK_AFTER_MS) } },
    select: { id: true, workspaceId: true, attempts: true },
    take: 500,
  });
  if (stuck.length) await sendEvent(stuck.map((d) => retryChainJobEvent({ dispatchId: d.id, workspaceId: d.workspaceId }, d.attempts)));
  return stuck.length;
}
