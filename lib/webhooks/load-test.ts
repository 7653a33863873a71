import { badRequest } from "@/lib/errors";
import { emitEvent } from "@/lib/events/emit";
import { notFoundEndpoint } from "./endpoint";

const TICK_MS = 10;
export const LOAD_TEST_LIMITS = { maxCount: 100_000, maxRate: 10_000 };

/**
 * Emits `count` test events to the workspace's endpoint at `rate` per second, through the same
 * emitEvent as every domain event (operators size a receiver with it; `npm run bench:webhooks`
 * drives deliveries with it, since the API alone cannot ingest 1,000 events/s on a small machine).
 */
export async function emitTestEventLoad(workspaceId: string, count: number, rate: number): Promise<{ emitted: number; seconds: number }> {
  if (!Number.isInteger(count) || count < 1 || count > LOAD_TEST_LIMITS.maxCount)
    throw badRequest(`--count must be a whole number from 1 to ${LOAD_TEST_LIMITS.maxCount}`);
  if (!Number.isInteger(rate) || rate < 1 || rate > LOAD_TEST_LIMITS.maxRate)
    throw badRequest(`--rate must be a whole number from 1 to ${LOAD_TEST_LIMITS.maxRate}`);
  const started = performance.now();
  let emitted = 0;
  const pending: Promise<void>[] = [];
  while (emitted < count) {
    // As many as are due by now: a tick that ran late catches up instead of lowering the rate.
    const due = Math.min(count, Math.ceil(((performance.now() - started) / 1000) * rate) || 1);
    for (; emitted < due; emitted++) {
      pending.push(
        emitEvent({
          onlyWithEndpoint: true,
          workspaceId,
          type: "test",
          data: { message: `Load test event ${emitted + 1} of ${count}`, triggeredBy: null },
        }).then((event) => {
          if (!event.stored) throw notFoundEndpoint();
        }),
      );
    }
    if (emitted < count) await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  await Promise.all(pending);
  return { emitted, seconds: Math.round(performance.now() - started) / 1000 };
}
