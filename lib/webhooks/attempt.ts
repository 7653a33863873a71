import { getConfig } from "@/lib/config";
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

/**
 * Sends one event to the workspace's current endpoint once and logs the attempt, updating the
 * endpoint's health and (for retry chains) the dispatch, in one transaction.
 */
export async function attemptDelivery(input: AttemptInput, policy: UrlPolicy = configuredUrlPolicy()): Promise<AttemptResult> {
  const db = getDb();
  const [endpoint, event] = await Promise.all([
    db.webhookEndpoint.findUnique({ where: { workspaceId: input.workspaceId } }),
    db.webhookEvent.findFirst({ where: { id: input.eventId, workspaceId: input.workspaceId }, select: { body: true, type: true } }),
  ]);
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

  const [delivery] = await db.$transaction([
    db.webhookDelivery.create({
      data: {
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
        error: sent.outcome.error ?? (succeeded ? null : `The endpoint answered ${sent.outcome.status}; any 2xx status is expected`),
        nextRetryAt,
        createdAt: now,
      },
    }),
    db.webhookEndpoint.updateMany({
      where: { id: endpoint.id },
      data: {
        lastDeliveryAt: now,
        lastOutcome: succeeded ? "succeeded" : "failed",
        lastResponseStatus: sent.outcome.status,
        consecutiveFailures: succeeded ? 0 : { increment: 1 },
      },
    }),
    ...(input.dispatchId
      ? [
          db.webhookDispatch.updateMany({
            where: { id: input.dispatchId },
            data: {
              attempts: input.attempt,
              status: succeeded ? "succeeded" : nextRetryAt ? "retrying" : "failed",
              nextAttemptAt: nextRetryAt,
              finishedAt: succeeded || !nextRetryAt ? now : null,
            },
          }),
        ]
      : []),
  ]);
  return { kind: "sent", delivery };
}
