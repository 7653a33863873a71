import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { EVENT_TYPES, isEventType } from "@/lib/events/types";
import { AppError, badRequest } from "@/lib/errors";
import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { configuredUrlPolicy } from "./attempt";
import type { WebhookEndpointView } from "./schemas";
import { newSigningSecret, standardWebhooksSecret } from "./sign";
import { resolveDeliverableUrl, WebhookUrlError, type UrlPolicy } from "./url-policy";
import { isUniqueViolation } from "@/lib/db/errors";

export const NO_ENDPOINT_MESSAGE = "No webhook endpoint is configured for this workspace; create one with PUT /api/v1/webhooks";

export function toEndpointView(row: WebhookEndpoint): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    secret: row.secret,
    standardWebhooksSecret: standardWebhooksSecret(row.secret),
    events: row.subscribesAll ? null : row.events,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    health: {
      lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
      lastDeliveryOutcome: row.lastOutcome === "succeeded" || row.lastOutcome === "failed" ? row.lastOutcome : null,
      lastResponseStatus: row.lastResponseStatus,
      consecutiveFailures: row.consecutiveFailures,
    },
  };
}

/** The workspace's endpoint with its secret and health, or null when none is configured. */
export async function getWebhookEndpoint(principal: Principal): Promise<{ webhook: WebhookEndpointView | null }> {
  const row = await getDb().webhookEndpoint.findUnique({ where: { workspaceId: principal.workspaceId } });
  return { webhook: row ? toEndpointView(row) : null };
}

/**
 * Creates the endpoint (generating its signing secret) or changes its URL (keeping the secret).
 * The URL must be public HTTPS: checked after resolving its host.
 */
export async function saveWebhookUrl(
  principal: Principal,
  input: { url: string },
  policy: UrlPolicy = configuredUrlPolicy(),
): Promise<{ webhook: WebhookEndpointView; created: boolean }> {
  let url: string;
  try {
    url = (await resolveDeliverableUrl(input.url.trim(), policy)).url.href;
  } catch (err) {
    if (err instanceof WebhookUrlError) throw badRequest(`Invalid webhook URL: ${err.message}`);
    throw err;
  }
  const db = getDb();
  const { workspaceId } = principal;
  for (;;) {
    const existing = await db.webhookEndpoint.findUnique({ where: { workspaceId } });
    if (existing) {
      const row = await db.webhookEndpoint.update({ where: { workspaceId }, data: { url } });
      return { webhook: toEndpointView(row), created: false };
    }
    try {
      const row = await db.webhookEndpoint.create({ data: { id: newId("whk"), workspaceId, url, secret: newSigningSecret() } });
      return { webhook: toEndpointView(row), created: true };
    } catch (err) {
      // A concurrent PUT created it first: change its URL instead.
      if (!isUniqueViolation(err)) throw err;
    }
  }
}

/** Sets the subscribed event kinds (null: all). Unknown names are refused, each named. */
export async function setWebhookEvents(principal: Principal, input: { events: string[] | null }): Promise<{ webhook: WebhookEndpointView }> {
  if (input.events) {
    const unknown = [...new Set(input.events.filter((e) => !isEventType(e)))];
    if (unknown.length) {
      throw badRequest(
        `Unknown event name${unknown.length > 1 ? "s" : ""}: ${unknown.map((e) => JSON.stringify(e)).join(", ")}. Known events: ${EVENT_TYPES.join(", ")}`,
      );
    }
  }
  const data = input.events === null ? { subscribesAll: true, events: [] } : { subscribesAll: false, events: [...new Set(input.events)] };
  // One statement: with a read back after the update, a delete landing between them would answer 404 for a change that was made.
  const [row] = await getDb().webhookEndpoint.updateManyAndReturn({ where: { workspaceId: principal.workspaceId }, data });
  if (!row) throw notFoundEndpoint();
  return { webhook: toEndpointView(row) };
}

/** Removes the endpoint and stops its pending retries; the delivery log stays for its 7 days. */
export async function deleteWebhookEndpoint(principal: Principal): Promise<{ ok: true }> {
  const db = getDb();
  const { workspaceId } = principal;
  const [deleted] = await db.$transaction([
    db.webhookEndpoint.deleteMany({ where: { workspaceId } }),
    db.webhookDispatch.updateMany({
      where: { workspaceId, status: { in: ["pending", "retrying"] } },
      data: { status: "cancelled", finishedAt: new Date(), nextAttemptAt: null },
    }),
  ]);
  if (!deleted.count) throw notFoundEndpoint();
  return { ok: true };
}

export function notFoundEndpoint(): AppError {
  return new AppError("not_found", NO_ENDPOINT_MESSAGE);
}
