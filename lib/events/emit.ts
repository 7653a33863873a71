import { queueFlowsForEvent } from "@/lib/automation/flow-trigger";
import { getDb, getPglite, queryRows } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { defineService } from "@/lib/services";
import { wakeFirstAttempts } from "@/lib/webhooks/first-attempts";
import { ALWAYS_DELIVERED, EVENT_DATA_SCHEMAS, type EventData, type EventEnvelope, type EventType } from "./types";

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
  /**
   * Store the event only when the workspace has an endpoint (checked in the same statement);
   * without one, nothing is stored and `stored` is false in the answer.
   */
  onlyWithEndpoint?: boolean;
}

export interface EmittedEvent {
  id: string;
  type: EventType;
  createdAt: string;
  /** True when the workspace's endpoint will receive it (a dispatch was queued). */
  queued: boolean;
  /** False only with `onlyWithEndpoint` when the workspace has no endpoint (nothing was stored). */
  stored: boolean;
}

/**
 * Records a webhook event on its own: stores it durably (serialized once; every attempt sends these
 * bytes) and, when the workspace's endpoint subscribes to the kind (`test` always), queues its
 * delivery. For an event that reports a change the caller commits, record it in that transaction
 * with `emitEventsInTransaction` instead; this one is for events that are the whole of their change
 * or are repeated safely under a dedupe key (a job step run again after a crash).
 */
export async function emitEvent<T extends EventType>(input: EmitEventInput<T>): Promise<EmittedEvent> {
  const data = EVENT_DATA_SCHEMAS[input.type].parse(input.data);
  const createdAt = new Date();
  const envelope: EventEnvelope = { id: newId("evt"), type: input.type, createdAt: createdAt.toISOString(), data: data as EventData<T> };

  const dispatchId = newId("whq");
  // The event and its dispatch in one statement: the pending dispatch is the delivery's work item
  // (lib/webhooks/first-attempts.ts claims it), so it can never be stored but not queued.
  const stored = await storeEvent({
    id: envelope.id,
    workspaceId: input.workspaceId,
    type: input.type,
    body: JSON.stringify(envelope),
    dedupeKey: input.dedupeKey ?? null,
    createdAt: envelope.createdAt,
    onlyWithEndpoint: input.onlyWithEndpoint === true,
    dispatchId,
    always: ALWAYS_DELIVERED.has(input.type),
  });
  if (!stored.created) {
    if (input.dedupeKey) {
      const first = await redeliverPendingFor(input.workspaceId, input.dedupeKey);
      if (first) return first;
    }
    if (input.onlyWithEndpoint) {
      await startFlows(input.workspaceId, envelope);
      return { id: envelope.id, type: input.type, createdAt: envelope.createdAt, queued: false, stored: false };
    }
    throw new Error(`Event ${envelope.id} was not stored`);
  }
  if (stored.queued) wakeFirstAttempts([dispatchId]);
  await startFlows(input.workspaceId, envelope, stored.flows);
  return { id: envelope.id, type: input.type, createdAt: envelope.createdAt, queued: stored.queued, stored: true };
}

interface EventRow {
  id: string;
  workspaceId: string;
  type: string;
  body: string;
  dedupeKey: string | null;
  createdAt: string;
  /** Store it only when the workspace has an endpoint. */
  onlyWithEndpoint: boolean;
  dispatchId: string;
  /** Queue it whatever the endpoint subscribes to (`test`). */
  always: boolean;
}

interface StoredEvent {
  created: boolean;
  queued: boolean;
  /** The flows the event's kind triggers in its workspace (lib/automation/flow-trigger.ts). */
  flows: string[];
}

// Events of any workspaces and kinds in one statement (one row each, in `ord` order): each event
// and, when its workspace's endpoint subscribes to the kind, its dispatch. A repeated dedupe key
// (also one repeated within the batch) stores nothing for that row.
const STORE_EVENTS_STATEMENT = `
    WITH input AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::text[], $9::boolean[])
        WITH ORDINALITY AS t(id, "workspaceId", type, body, "dedupeKey", "createdAt", "onlyWithEndpoint", "dispatchId", always, ord)
    ), ev AS (
      INSERT INTO webhook_events (id, "workspaceId", type, body, "dedupeKey", "createdAt")
      SELECT i.id, i."workspaceId", i.type, i.body, i."dedupeKey", i."createdAt"::timestamp(3)
      FROM input i
      WHERE NOT i."onlyWithEndpoint" OR EXISTS (SELECT 1 FROM webhook_endpoints WHERE "workspaceId" = i."workspaceId")
      ORDER BY i.ord
      ON CONFLICT DO NOTHING
      RETURNING id
    ), disp AS (
      INSERT INTO webhook_dispatches (id, "workspaceId", "eventId", "createdAt")
      SELECT i."dispatchId", i."workspaceId", ev.id, i."createdAt"::timestamp(3)
      FROM ev JOIN input i ON i.id = ev.id JOIN webhook_endpoints e ON e."workspaceId" = i."workspaceId"
      WHERE i.always OR e."subscribesAll" OR i.type = ANY(e.events)
      ORDER BY i.ord
      RETURNING id
    )
    SELECT ev.id IS NOT NULL AS created, disp.id IS NOT NULL AS queued,
      -- the flows this kind triggers (lib/automation/flow-trigger.ts), read in the same round trip
      coalesce((SELECT array_agg(f.id) FROM automation_flows f
        WHERE f."workspaceId" = i."workspaceId" AND f."triggerKind" = 'event' AND f."eventType" = i.type), '{}') AS flows
    FROM input i LEFT JOIN ev ON ev.id = i.id LEFT JOIN disp ON disp.id = i."dispatchId"
    ORDER BY i.ord`;

/** Events stored together at most: one statement's arrays. */
const STORE_BATCH = 256;

/**
 * Group commit of concurrent emits: an event waits only while a statement of earlier events is
 * running, and every event that arrived meanwhile goes in the next statement (on the embedded
 * database, which runs one statement at a time, a statement per event was the cost of emitting).
 * One at a time on the embedded database; a few at once on PostgreSQL's pool.
 */
interface EventStore {
  waiting: { row: EventRow; resolve: (stored: StoredEvent) => void; reject: (err: unknown) => void }[];
  running: number;
}

const eventStore = defineService("events.store", (): EventStore => ({ waiting: [], running: 0 }));

function storeEvent(row: EventRow): Promise<StoredEvent> {
  const store = eventStore();
  return new Promise<StoredEvent>((resolve, reject) => {
    store.waiting.push({ row, resolve, reject });
    if (store.running < (getPglite() ? 1 : 4)) void drainEventStore(store);
  });
}

async function drainEventStore(store: EventStore): Promise<void> {
  store.running++;
  try {
    while (store.waiting.length) {
      const batch = store.waiting.splice(0, STORE_BATCH);
      try {
        const stored = await storeEventRows(batch.map((w) => w.row));
        for (const [i, w] of batch.entries()) w.resolve(stored[i]!);
      } catch (err) {
        if (batch.length === 1) batch[0]!.reject(err);
        // One event's failure is its own emit's: the others are stored one by one.
        else for (const w of batch) storeEventRows([w.row]).then(([stored]) => w.resolve(stored!), w.reject);
      }
    }
  } finally {
    store.running--;
  }
}

async function storeEventRows(rows: EventRow[]): Promise<StoredEvent[]> {
  const column = <K extends keyof EventRow>(key: K) => rows.map((r) => r[key]);
  const result = await queryRows<StoredEvent>(STORE_EVENTS_STATEMENT, [
    column("id"),
    column("workspaceId"),
    column("type"),
    column("body"),
    column("dedupeKey"),
    column("createdAt"),
    column("onlyWithEndpoint"),
    column("dispatchId"),
    column("always"),
  ]);
  if (result.length !== rows.length) throw new Error(`Storing ${rows.length} events answered ${result.length} rows`);
  return result;
}

/**
 * Automation flows triggered by the event's kind (lib/automation). A new event only: a repeated
 * dedupe key returned above. Flows are extra work; a failure to queue them is logged, and the
 * event, already stored, still counts as emitted.
 */
async function startFlows(workspaceId: string, envelope: EventEnvelope, flowIds?: string[]): Promise<void> {
  try {
    await queueFlowsForEvent(
      workspaceId,
      { id: envelope.id, type: envelope.type, createdAt: envelope.createdAt, data: envelope.data as Record<string, unknown> },
      flowIds,
    );
  } catch (err) {
    log.warn("automation flows not queued", { eventId: envelope.id, type: envelope.type, err });
  }
}

/**
 * A repeated emit: answer with the first event (its pending dispatch, if any, is still claimed by
 * the first attempts' loop).
 */
async function redeliverPendingFor(workspaceId: string, dedupeKey: string): Promise<EmittedEvent | null> {
  const db = getDb();
  const event = await db.webhookEvent.findUnique({ where: { workspaceId_dedupeKey: { workspaceId, dedupeKey } } });
  if (!event) return null; // nothing stored under the key: the insert was skipped for want of an endpoint
  const dispatch = await db.webhookDispatch.findFirst({ where: { eventId: event.id }, orderBy: { createdAt: "asc" } });
  if (dispatch?.status === "pending") wakeFirstAttempts([dispatch.id]);
  return { id: event.id, type: event.type as EventType, createdAt: event.createdAt.toISOString(), queued: dispatch !== null, stored: true };
}

/** A transaction's raw-SQL handle (Prisma's interactive transaction client). */
interface SqlTransaction {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

// Many events of one kind in one statement: events and their dispatches (when the endpoint
// subscribes); repeated dedupe keys store nothing. Answers the events stored, the dispatches queued
// and the flows the kind triggers in the workspace.
const EMIT_MANY_STATEMENT = `
    WITH input AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, body, "dedupeKey", "dispatchId")
    ), ev AS (
      INSERT INTO webhook_events (id, "workspaceId", type, body, "dedupeKey", "createdAt")
      SELECT id, $5::text, $6::text, body, "dedupeKey", $7::timestamp(3) FROM input
      ON CONFLICT DO NOTHING
      RETURNING id
    ), disp AS (
      INSERT INTO webhook_dispatches (id, "workspaceId", "eventId", "createdAt")
      SELECT i."dispatchId", $5::text, ev.id, $7::timestamp(3)
      FROM ev JOIN input i ON i.id = ev.id JOIN webhook_endpoints e ON e."workspaceId" = $5::text
      WHERE e."subscribesAll" OR $6::text = ANY(e.events)
      RETURNING id
    )
    SELECT coalesce((SELECT array_agg(id) FROM ev), '{}') AS created, coalesce((SELECT array_agg(id) FROM disp), '{}') AS queued,
      coalesce((SELECT array_agg(f.id) FROM automation_flows f
        WHERE f."workspaceId" = $5::text AND f."triggerKind" = 'event' AND f."eventType" = $6::text), '{}') AS flows`;

/**
 * Records events of one kind inside the caller's transaction, so they are stored together with the
 * rows they report or not at all (e.g. `lead.received` with the stored leads, an upload's terminal
 * event with its status, a review decision with the status it sets): a process that dies after the
 * commit cannot lose the event, as it could between a commit and a later `emitEvent`. Answers each
 * event's id in input order (null where its dedupe key was taken). Call `afterCommit()` once the
 * transaction has committed: it starts the deliveries that were queued and the automation flows the
 * new events trigger. (A process that stops before then leaves the dispatches pending: the first
 * attempts' poll sends them.)
 */
export async function emitEventsInTransaction<T extends EventType>(
  tx: SqlTransaction,
  workspaceId: string,
  type: T,
  events: { data: EventData<T>; dedupeKey?: string }[],
): Promise<{ created: number; ids: (string | null)[]; afterCommit: () => Promise<void> }> {
  if (!events.length) return { created: 0, ids: [], afterCommit: async () => undefined };
  const schema = EVENT_DATA_SCHEMAS[type];
  const createdAt = new Date();
  const envelopes = new Map<string, EventEnvelope>();
  const bodies: string[] = [];
  const dispatchIds: string[] = [];
  for (const event of events) {
    const envelope: EventEnvelope = { id: newId("evt"), type, createdAt: createdAt.toISOString(), data: schema.parse(event.data) as EventData<T> };
    envelopes.set(envelope.id, envelope);
    bodies.push(JSON.stringify(envelope));
    dispatchIds.push(newId("whq"));
  }
  const rows = await tx.$queryRawUnsafe<{ created: string[]; queued: string[]; flows: string[] }[]>(
    EMIT_MANY_STATEMENT,
    [...envelopes.keys()],
    bodies,
    events.map((e) => e.dedupeKey ?? null),
    dispatchIds,
    workspaceId,
    type,
    sqlTime(createdAt),
  );
  const { created = [], queued = [], flows = [] } = rows[0] ?? {};
  // The events and dispatches commit with the caller's transaction; once it has, deliveries and flows start.
  const afterCommit = async () => {
    if (queued.length) wakeFirstAttempts(queued);
    if (flows.length) for (const id of created) await startFlows(workspaceId, envelopes.get(id)!, flows);
  };
  const stored = new Set(created);
  return { created: created.length, ids: [...envelopes.keys()].map((id) => (stored.has(id) ? id : null)), afterCommit };
}
