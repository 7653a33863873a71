import { getConfig } from "@/lib/config";
import { sqlTime } from "@/lib/jobs/embedded/sql-time";
import { getDb } from "@/lib/db/client";
import type { WebhookDelivery } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { isSuccess, sendSignedRequest } from "./send-request";
import { systemResolver, type UrlPolicy } from "./url-policy";

export type DeliveryTrigger = "initial" | "retry" | "redelivery";

/** The URL policy the configuration asks for, with the system resolver. */
export function configuredUrlPolicy(): UrlPolicy {
  return { allowPrivate: getConfig().webhooks.allowPrivateUrls, resolver: systemResolver };
}

export interface AttemptInput {
  workspaceId: string;
  eventId: string;
  /** The retry chain this attempt belongs to; null for a redelivery. */
  dispatchId: string | null;
  attempt: number;
  trigger: DeliveryTrigger;
  /** When this attempt fails, the wait before the next one; null when none follows. */
  retryInMs: number | null;
}

export type AttemptResult = { kind: "sent"; delivery: WebhookDelivery } | { kind: "no_endpoint" } | { kind: "no_event" };

/** What one attempt needs: the event's stored bytes and the workspace's current endpoint. */
export interface AttemptTarget {
  event: { body: string; type: string } | null;
  endpoint: { id: string; url: string; secret: string } | null;
}

/** Reads the event and the workspace's endpoint in one statement. */
export async function loadAttemptTarget(workspaceId: string, eventId: string): Promise<AttemptTarget> {
  const rows = await getDb().$queryRaw<{ body: string | null; type: string | null; endpointId: string | null; url: string | null; secret: string | null }[]>`
    SELECT ev.body, ev.type, e.id AS "endpointId", e.url, e.secret
    FROM (SELECT ${workspaceId}::text AS "workspaceId") w
    LEFT JOIN webhook_events ev ON ev.id = ${eventId} AND ev."workspaceId" = w."workspaceId"
    LEFT JOIN webhook_endpoints e ON e."workspaceId" = w."workspaceId"`;
  return targetOf(rows[0]);
}

export function targetOf(row: { body: string | null; type: string | null; endpointId: string | null; url: string | null; secret: string | null } | undefined): AttemptTarget {
  return {
    event: row?.body != null && row.type != null ? { body: row.body, type: row.type } : null,
    endpoint: row?.endpointId != null ? { id: row.endpointId, url: row.url!, secret: row.secret! } : null,
  };
}

/**
 * Sends one event to the workspace's current endpoint once and logs the attempt, updating the
 * endpoint's health and (for retry chains) the dispatch, in one statement. `target` may be given
 * when the caller has just read it (the dispatch path reads it with the dispatch).
 */
export async function attemptDelivery(input: AttemptInput, policy: UrlPolicy = configuredUrlPolicy(), target?: AttemptTarget): Promise<AttemptResult> {
  const db = getDb();
  const { endpoint, event } = target ?? (await loadAttemptTarget(input.workspaceId, input.eventId));
  if (!event) return { kind: "no_event" };
  if (!endpoint) return { kind: "no_endpoint" };

  const deliveryId = newId("whd");
  const sent = await sendSignedRequest(
    { url: endpoint.url, secret: endpoint.secret, body: event.body, eventId: input.eventId, eventType: event.type, deliveryId },
    policy,
  );
  const succeeded = isSuccess(sent.outcome);
  const now = new Date();
  const nextRetryAt = !succeeded && input.retryInMs !== null ? new Date(now.getTime() + input.retryInMs) : null;
  const error = sent.outcome.error ?? (succeeded ? null : `The endpoint answered ${sent.outcome.status}; any 2xx status is expected`);
  const dispatchStatus = succeeded ? "succeeded" : nextRetryAt ? "retrying" : "failed";
  const finishedAt = succeeded || !nextRetryAt ? now : null;

  // One statement: the log entry, the endpoint's health and the dispatch commit together.
  const rows = await db.$queryRaw<WebhookDelivery[]>`
    WITH del AS (
      INSERT INTO webhook_deliveries (id, "workspaceId", "eventId", "eventType", "dispatchId", attempt, trigger, url, "remoteAddress", succeeded,
        "requestHeaders", "responseStatus", "responseBody", "durationMs", error, "nextRetryAt", "createdAt")
      VALUES (${deliveryId}, ${input.workspaceId}, ${input.eventId}, ${event.type}, ${input.dispatchId}::text, ${input.attempt}::int, ${input.trigger}, ${endpoint.url},
        ${sent.remoteAddress}::text, ${succeeded}, ${JSON.stringify(sent.headers)}::jsonb, ${sent.outcome.status}::int, ${sent.outcome.responseExcerpt}::text,
        ${sent.outcome.durationMs}::int, ${error}::text, ${sqlTime(nextRetryAt)}::timestamp(3), ${sqlTime(now)}::timestamp(3))
      RETURNING *
    ), ep AS (
      UPDATE webhook_endpoints SET "lastDeliveryAt" = ${sqlTime(now)}::timestamp(3), "lastOutcome" = ${succeeded ? "succeeded" : "failed"},
        "lastResponseStatus" = ${sent.outcome.status}::int,
        "consecutiveFailures" = CASE WHEN ${succeeded} THEN 0 ELSE "consecutiveFailures" + 1 END, "updatedAt" = ${sqlTime(now)}::timestamp(3)
      WHERE id = ${endpoint.id}
    ), disp AS (
      UPDATE webhook_dispatches SET attempts = ${input.attempt}::int, status = ${dispatchStatus}::"WebhookDispatchStatus",
        "nextAttemptAt" = ${sqlTime(nextRetryAt)}::timestamp(3), "finishedAt" = ${sqlTime(finishedAt)}::timestamp(3)
      WHERE id = ${input.dispatchId}::text
    )
    SELECT * FROM del`;
  return { kind: "sent", delivery: rows[0]! };
}
