import { getConfig } from "@/lib/services";
import { sqlTime } from "@/lib/db/sql-time";
import { getDb, queryRows } from "@/lib/db/client";
import type { WebhookDelivery } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { recordWebhookAttempt } from "@/lib/observability/metrics";
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

export function targetOf(
  row: { body: string | null; type: string | null; endpointId: string | null; url: string | null; secret: string | null } | undefined,
): AttemptTarget {
  return {
    event: row?.body != null && row.type != null ? { body: row.body, type: row.type } : null,
    endpoint: row?.endpointId != null ? { id: row.endpointId, url: row.url!, secret: row.secret! } : null,
  };
}

const RECORD_ATTEMPT_STATEMENT = `
    WITH del AS (
      INSERT INTO webhook_deliveries (id, "workspaceId", "eventId", "eventType", "dispatchId", attempt, trigger, url, "remoteAddress", succeeded,
        "requestHeaders", "responseStatus", "responseBody", "durationMs", error, "nextRetryAt", "createdAt")
      VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::int, $7::text, $8::text,
        $9::text, $10::boolean, $11::jsonb, $12::int, $13::text,
        $14::int, $15::text, $16::timestamp(3), $17::timestamp(3))
      RETURNING id
    ), ep AS (
      UPDATE webhook_endpoints SET "lastDeliveryAt" = $17::timestamp(3), "lastOutcome" = CASE WHEN $10::boolean THEN 'succeeded' ELSE 'failed' END,
        "lastResponseStatus" = $12::int,
        "consecutiveFailures" = CASE WHEN $10::boolean THEN 0 ELSE "consecutiveFailures" + 1 END, "updatedAt" = $17::timestamp(3)
      WHERE id = $18::text
    ), disp AS (
      UPDATE webhook_dispatches SET attempts = $6::int, status = $19::text::"WebhookDispatchStatus",
        "nextAttemptAt" = $16::timestamp(3), "finishedAt" = $20::timestamp(3)
      WHERE id = $5::text AND status IN ('pending', 'retrying')
    )
    SELECT count(*)::int AS n FROM del`;

export interface SentAttempt {
  /** The log entry of the attempt, as it is to be stored. */
  delivery: WebhookDelivery;
  /** The dispatch's status after this attempt. */
  dispatchStatus: "succeeded" | "retrying" | "failed";
  finishedAt: Date | null;
}

/** Sends the event to the endpoint once (signed, over the checked address) and describes the attempt; writes nothing. */
export async function sendAttempt(
  input: AttemptInput,
  endpoint: NonNullable<AttemptTarget["endpoint"]>,
  event: NonNullable<AttemptTarget["event"]>,
  policy: UrlPolicy = configuredUrlPolicy(),
): Promise<SentAttempt> {
  const deliveryId = newId("whd");
  const sent = await sendSignedRequest(
    { url: endpoint.url, secret: endpoint.secret, body: event.body, eventId: input.eventId, eventType: event.type, deliveryId },
    policy,
  );
  const succeeded = isSuccess(sent.outcome);
  recordWebhookAttempt(succeeded ? "succeeded" : "failed");
  const now = new Date();
  const nextRetryAt = !succeeded && input.retryInMs !== null ? new Date(now.getTime() + input.retryInMs) : null;
  const error = sent.outcome.error ?? (succeeded ? null : `The endpoint answered ${sent.outcome.status}; any 2xx status is expected`);
  const delivery: WebhookDelivery = {
    id: deliveryId,
    workspaceId: input.workspaceId,
    eventId: input.eventId,
    eventType: event.type,
    dispatchId: input.dispatchId,
    attempt: input.attempt,
    trigger: input.trigger,
    url: endpoint.url,
    remoteAddress: sent.remoteAddress,
    succeeded,
    requestHeaders: sent.headers,
    responseStatus: sent.outcome.status,
    responseBody: sent.outcome.responseExcerpt,
    durationMs: sent.outcome.durationMs,
    error,
    nextRetryAt,
    createdAt: now,
  };
  return { delivery, dispatchStatus: succeeded ? "succeeded" : nextRetryAt ? "retrying" : "failed", finishedAt: succeeded || !nextRetryAt ? now : null };
}

/**
 * Sends one event to the workspace's current endpoint once and logs the attempt, updating the
 * endpoint's health and (for retry chains) the dispatch, in one statement; a dispatch cancelled meanwhile (its endpoint
 * was removed while the attempt was in flight) stays cancelled, so its retries stop. `target` may be given
 * when the caller has just read it (the dispatch path reads it with the dispatch).
 */
export async function attemptDelivery(input: AttemptInput, policy: UrlPolicy = configuredUrlPolicy(), target?: AttemptTarget): Promise<AttemptResult> {
  const { endpoint, event } = target ?? (await loadAttemptTarget(input.workspaceId, input.eventId));
  if (!event) return { kind: "no_event" };
  if (!endpoint) return { kind: "no_endpoint" };

  const { delivery, dispatchStatus, finishedAt } = await sendAttempt(input, endpoint, event, policy);
  // One statement: the log entry, the endpoint's health and the dispatch commit together
  // (straight through the driver: the answer is the row just written, built above).
  await queryRows(RECORD_ATTEMPT_STATEMENT, [
    delivery.id,
    input.workspaceId,
    input.eventId,
    event.type,
    input.dispatchId,
    input.attempt,
    input.trigger,
    endpoint.url,
    delivery.remoteAddress,
    delivery.succeeded,
    JSON.stringify(delivery.requestHeaders),
    delivery.responseStatus,
    delivery.responseBody,
    delivery.durationMs,
    delivery.error,
    sqlTime(delivery.nextRetryAt),
    sqlTime(delivery.createdAt),
    endpoint.id,
    dispatchStatus,
    sqlTime(finishedAt),
  ]);
  return { kind: "sent", delivery };
}
