/**
 * The stuck-retry sweeper (lib/webhooks/sweep.ts) against a real database: a dispatch left `retrying` after its
 * chain's run died must get a job that runs the chain again, although that chain's own job event was processed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

let db: ReturnType<typeof import("@/lib/db/client").getDb>;
beforeAll(async () => {
  await useFreshDatabase("webhook_sweep");
  db = (await import("@/lib/db/client")).getDb();
});
afterAll(async () => (await import("@/lib/services")).disposeServices());

const waitingJobs = (dispatchId: string) =>
  db.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM job_events WHERE data->>'dispatchId' = $1 AND "processedAt" IS NULL`, dispatchId);

describe("stuck webhook retries", () => {
  it("a chain whose run died is queued again, once per sweep point, though its first job event was processed", async () => {
    const { sendEvent } = await import("@/lib/jobs/outbox");
    const { retryChainJobEvent } = await import("@/lib/webhooks/job-events");
    const { requeueStuckDispatches } = await import("@/lib/webhooks/sweep");
    const now = new Date();
    const dispatch = { id: "wdp_stuck_chain", workspaceId: "ws_sweep", eventId: "evt_sweep" };
    await db.webhookDispatch.create({ data: { ...dispatch, status: "retrying", attempts: 3, nextAttemptAt: new Date(now.getTime() - 5 * 60_000) } });
    // The chain's job ran and died: its event is processed.
    await sendEvent(retryChainJobEvent({ dispatchId: dispatch.id, workspaceId: dispatch.workspaceId }));
    await db.$executeRawUnsafe(`UPDATE job_events SET "processedAt" = now() WHERE data->>'dispatchId' = $1`, dispatch.id);
    expect(await waitingJobs(dispatch.id)).toEqual([]);
    // A dispatch retrying on schedule is left alone.
    await db.webhookDispatch.create({
      data: { id: "wdp_on_time", workspaceId: "ws_sweep", eventId: "evt_on_time", status: "retrying", attempts: 2, nextAttemptAt: now },
    });

    expect(await requeueStuckDispatches(now)).toBe(1);
    expect(await waitingJobs(dispatch.id)).toHaveLength(1);
    expect(await waitingJobs("wdp_on_time")).toEqual([]);
    // The next sweeps, while it stays stuck at the same attempt, queue nothing more.
    await requeueStuckDispatches(new Date(now.getTime() + 60_000));
    expect(await waitingJobs(dispatch.id)).toHaveLength(1);
  });
});
