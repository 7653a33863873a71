import { getDb, queryRows } from "@/lib/db/client";
import { attemptDelivery, targetOf } from "./attempt";

export interface DispatchStepResult {
  /** True when no further attempt follows (delivered, gave up, or the endpoint is gone). */
  done: boolean;
  outcome: "succeeded" | "failed" | "retrying" | "cancelled";
  /** When the next attempt is due (ISO), while retrying. */
  nextAttemptAt: string | null;
}

interface DispatchRow {
  workspaceId: string;
  eventId: string;
  status: string;
  attempts: number;
  /** Epoch milliseconds (queryRows reads timestamps that way). */
  nextAttemptAtMs: number | null;
  body: string | null;
  type: string | null;
  endpointId: string | null;
  url: string | null;
  secret: string | null;
}

// The dispatch, its event and the workspace's endpoint in one read (straight through the driver).
const DISPATCH_QUERY = `
    SELECT d."workspaceId", d."eventId", d.status::text AS status, d.attempts,
      (extract(epoch FROM d."nextAttemptAt") * 1000)::float8 AS "nextAttemptAtMs", ev.body, ev.type, e.id AS "endpointId", e.url, e.secret
    FROM webhook_dispatches d
    LEFT JOIN webhook_events ev ON ev.id = d."eventId" AND ev."workspaceId" = d."workspaceId"
    LEFT JOIN webhook_endpoints e ON e."workspaceId" = d."workspaceId"
    WHERE d.id = $1::text`;

/**
 * One attempt of a dispatch's retry chain (a step of the webhook-deliver job). Safe to repeat:
 * an attempt that was already logged is not sent again.
 */
export async function runDispatchAttempt(dispatchId: string, attempt: number, retryInMs: number | null): Promise<DispatchStepResult> {
  const db = getDb();
  const rows = await queryRows<DispatchRow>(DISPATCH_QUERY, [dispatchId]);
  const dispatch = rows[0];
  if (!dispatch || dispatch.status === "cancelled") return { done: true, outcome: "cancelled", nextAttemptAt: null };
  if (dispatch.attempts >= attempt) return resultOf(dispatch);

  const result = await attemptDelivery(
    {
      workspaceId: dispatch.workspaceId,
      eventId: dispatch.eventId,
      dispatchId,
      attempt,
      trigger: attempt === 1 ? "initial" : "retry",
      retryInMs,
    },
    undefined,
    targetOf(dispatch),
  );
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

function resultOf(dispatch: { status: string; nextAttemptAtMs: number | null }): DispatchStepResult {
  switch (dispatch.status) {
    case "retrying":
      return { done: false, outcome: "retrying", nextAttemptAt: new Date(dispatch.nextAttemptAtMs ?? Date.now()).toISOString() };
    case "succeeded":
      return { done: true, outcome: "succeeded", nextAttemptAt: null };
    default:
      return { done: true, outcome: "failed", nextAttemptAt: null };
  }
}
