import { getDb, queryRows } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { attemptDelivery, targetOf } from "./attempt";
import { FIRST_ATTEMPT_LEASE_MS } from "./first-attempts";

export interface DispatchStepResult {
  /** True when no further attempt follows (delivered, gave up, or the endpoint is gone). */
  done: boolean;
  /** `first-attempts`: the dispatch's first attempt is with lib/webhooks/first-attempts.ts, which starts the chain again if it fails. */
  outcome: "succeeded" | "failed" | "retrying" | "cancelled" | "first-attempts";
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
  // A job queued for a dispatch before it was sent at all (job events of older versions): the
  // first attempt is the first attempts' loop's, unless this job takes its lease first.
  if (dispatch.attempts === 0 && !(await leaseFirstAttempt(dispatchId))) return { done: true, outcome: "first-attempts", nextAttemptAt: null };

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

const LEASE_STATEMENT = `
    UPDATE webhook_dispatches SET "nextAttemptAt" = $3::timestamp(3)
    WHERE id = $1::text AND status = 'pending' AND attempts = 0 AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= $2::timestamp(3))
    RETURNING id`;

async function leaseFirstAttempt(dispatchId: string): Promise<boolean> {
  const now = Date.now();
  const rows = await queryRows(LEASE_STATEMENT, [dispatchId, sqlTime(new Date(now)), sqlTime(new Date(now + FIRST_ATTEMPT_LEASE_MS))]);
  return rows.length > 0;
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
