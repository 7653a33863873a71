import { getDb } from "@/lib/db/client";
import { attemptDelivery } from "./attempt";

export interface DispatchStepResult {
  /** True when no further attempt follows (delivered, gave up, or the endpoint is gone). */
  done: boolean;
  outcome: "succeeded" | "failed" | "retrying" | "cancelled";
  /** When the next attempt is due (ISO), while retrying. */
  nextAttemptAt: string | null;
}

/**
 * One attempt of a dispatch's retry chain (a step of the webhook-deliver job). Safe to repeat:
 * an attempt that was already logged is not sent again.
 */
export async function runDispatchAttempt(dispatchId: string, attempt: number, retryInMs: number | null): Promise<DispatchStepResult> {
  const db = getDb();
  const dispatch = await db.webhookDispatch.findUnique({ where: { id: dispatchId } });
  if (!dispatch || dispatch.status === "cancelled") return { done: true, outcome: "cancelled", nextAttemptAt: null };
  if (dispatch.attempts >= attempt) return resultOf(dispatch);

  const result = await attemptDelivery({
    workspaceId: dispatch.workspaceId,
    eventId: dispatch.eventId,
    dispatchId,
    attempt,
    trigger: attempt === 1 ? "initial" : "retry",
    retryInMs,
  });
  if (result.kind !== "sent") {
    await db.webhookDispatch.update({ where: { id: dispatchId }, data: { status: "cancelled", finishedAt: new Date(), nextAttemptAt: null } });
    return { done: true, outcome: "cancelled", nextAttemptAt: null };
  }
  const { delivery } = result;
  if (delivery.succeeded) return { done: true, outcome: "succeeded", nextAttemptAt: null };
  return delivery.nextRetryAt
    ? { done: false, outcome: "retrying", nextAttemptAt: delivery.nextRetryAt.toISOString() }
    : { done: true, outcome: "failed", nextAttemptAt: null };
}

function resultOf(dispatch: { status: string; nextAttemptAt: Date | null }): DispatchStepResult {
  switch (dispatch.status) {
    case "retrying":
      return { done: false, outcome: "retrying", nextAttemptAt: (dispatch.nextAttemptAt ?? new Date()).toISOString() };
    case "succeeded":
      return { done: true, outcome: "succeeded", nextAttemptAt: null };
    default:
      return { done: true, outcome: "failed", nextAttemptAt: null };
  }
}
