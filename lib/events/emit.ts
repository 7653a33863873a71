import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { sendEvent } from "@/lib/jobs/send";
import { endpointSubscribes } from "@/lib/webhooks/subscription";
import { WEBHOOK_DELIVER_EVENT, type WebhookDeliverData } from "@/lib/webhooks/job-events";
import { EVENT_DATA_SCHEMAS, type EventData, type EventEnvelope, type EventType } from "./types";

export interface EmitEventInput<T extends EventType> {
  workspaceId: string;
  type: T;
  /** The payload; validated against the kind's schema in lib/events/types.ts. */
  data: EventData<T>;
  /**
   * Makes emission idempotent: a second emit with the same key in the same workspace returns the
   * first event and sends nothing (e.g. `upload.completed:<uploadId>:<jobRun>` from a retried job step).
   */
  dedupeKey?: string;
}

export interface EmittedEvent {
  id: string;
  type: EventType;
  createdAt: string;
  /** True when the workspace's endpoint will receive it (a dispatch was queued). */
  queued: boolean;
}

/**
 * The one place the domain records a webhook event. Call it after your transaction commits:
 * stores the event durably (serialized once; every attempt sends these bytes) and, when the
 * workspace's endpoint subscribes to the kind (`test` always), queues its delivery.
 */
export async function emitEvent<T extends EventType>(input: EmitEventInput<T>): Promise<EmittedEvent> {
  const data = EVENT_DATA_SCHEMAS[input.type].parse(input.data);
  const db = getDb();
  const createdAt = new Date();
  const envelope: EventEnvelope = { id: newId("evt"), type: input.type, createdAt: createdAt.toISOString(), data: data as EventData<T> };

  const endpoint = await db.webhookEndpoint.findUnique({
    where: { workspaceId: input.workspaceId },
    select: { events: true, subscribesAll: true },
  });
  const queue = endpoint !== null && endpointSubscribes(endpoint, input.type);
  const dispatchId = newId("whq");

  try {
    await db.$transaction([
      db.webhookEvent.create({
        data: { id: envelope.id, workspaceId: input.workspaceId, type: input.type, body: JSON.stringify(envelope), dedupeKey: input.dedupeKey ?? null, createdAt },
      }),
      ...(queue ? [db.webhookDispatch.create({ data: { id: dispatchId, workspaceId: input.workspaceId, eventId: envelope.id, createdAt } })] : []),
    ]);
  } catch (err) {
    if (input.dedupeKey && err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      return redeliverPendingFor(input.workspaceId, input.dedupeKey);
    }
    throw err;
  }
  if (queue) await queueDispatch({ dispatchId, workspaceId: input.workspaceId });
  return { id: envelope.id, type: input.type, createdAt: envelope.createdAt, queued: queue };
}

/** Starts (or, with the same id, harmlessly re-starts) the delivery job of a dispatch. */
export async function queueDispatch(data: WebhookDeliverData): Promise<void> {
  await sendEvent({ name: WEBHOOK_DELIVER_EVENT, data: { ...data }, id: `webhook-deliver-${data.dispatchId}` });
}

/**
 * A repeated emit: answer with the first event. If the first emitter died between storing the
 * event and queueing it, its pending dispatch is queued again (the job event id deduplicates).
 */
async function redeliverPendingFor(workspaceId: string, dedupeKey: string): Promise<EmittedEvent> {
  const db = getDb();
  const event = await db.webhookEvent.findUniqueOrThrow({ where: { workspaceId_dedupeKey: { workspaceId, dedupeKey } } });
  const dispatch = await db.webhookDispatch.findFirst({ where: { eventId: event.id }, orderBy: { createdAt: "asc" } });
  if (dispatch?.status === "pending") await queueDispatch({ dispatchId: dispatch.id, workspaceId });
  return { id: event.id, type: event.type as EventType, createdAt: event.createdAt.toISOString(), queued: dispatch !== null };
}
