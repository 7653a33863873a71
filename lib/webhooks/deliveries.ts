import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import type { EventType } from "@/lib/events/types";
import { notFound } from "@/lib/errors";
import type { WebhookDelivery } from "@/lib/generated/prisma/client";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { attemptDelivery } from "./attempt";
import { notFoundEndpoint } from "./endpoint";
import { WEBHOOK_LOG_RETENTION_MS } from "./purge";
import type { WebhookDeliveryView } from "./schemas";

export interface ListDeliveriesInput {
  limit: number;
  cursor?: string;
  eventType?: EventType;
  outcome?: "succeeded" | "failed";
  eventId?: string;
}

function toDeliveryView(row: WebhookDelivery, body: string): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    attempt: row.attempt,
    trigger: row.trigger as WebhookDeliveryView["trigger"],
    url: row.url,
    outcome: row.succeeded ? "succeeded" : "failed",
    request: { headers: row.requestHeaders as Record<string, string>, body },
    response: { status: row.responseStatus, body: row.responseBody },
    durationMs: row.durationMs,
    error: row.error,
    nextRetryAt: row.nextRetryAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function withBodies(workspaceId: string, rows: WebhookDelivery[]): Promise<WebhookDeliveryView[]> {
  const ids = [...new Set(rows.map((r) => r.eventId))];
  const events = ids.length ? await getDb().webhookEvent.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true, body: true } }) : [];
  const bodies = new Map(events.map((e) => [e.id, e.body]));
  return rows.map((r) => toDeliveryView(r, bodies.get(r.eventId) ?? ""));
}

/** The delivery log of the last 7 days, newest first, cursor-paginated, filterable by event type, outcome and event id. */
export async function listWebhookDeliveries(
  principal: Principal,
  input: ListDeliveriesInput,
): Promise<{ deliveries: WebhookDeliveryView[]; nextCursor: string | null }> {
  const { workspaceId } = principal;
  const rows = await getDb().webhookDelivery.findMany({
    where: {
      workspaceId,
      createdAt: { gte: new Date(Date.now() - WEBHOOK_LOG_RETENTION_MS) },
      ...(input.eventType ? { eventType: input.eventType } : {}),
      ...(input.outcome ? { succeeded: input.outcome === "succeeded" } : {}),
      ...(input.eventId ? { eventId: input.eventId } : {}),
      ...afterCursor(input.cursor),
    },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { deliveries: await withBodies(workspaceId, page.items), nextCursor: page.nextCursor };
}

/**
 * Re-sends a logged delivery's event (same event id, same body bytes, fresh signature) to the
 * endpoint's current URL, now, as a new logged attempt; returns that attempt.
 */
export async function redeliverWebhookDelivery(principal: Principal, input: { id: string }): Promise<{ delivery: WebhookDeliveryView }> {
  const { workspaceId } = principal;
  const original = await getDb().webhookDelivery.findFirst({
    where: { id: input.id, workspaceId, createdAt: { gte: new Date(Date.now() - WEBHOOK_LOG_RETENTION_MS) } },
  });
  if (!original) throw notFound("Delivery");
  const result = await attemptDelivery({ workspaceId, eventId: original.eventId, dispatchId: null, attempt: 1, trigger: "redelivery", retryInMs: null });
  if (result.kind === "no_endpoint") throw notFoundEndpoint();
  if (result.kind === "no_event") throw notFound("Delivery");
  const [view] = await withBodies(workspaceId, [result.delivery]);
  return { delivery: view! };
}
