import { defineService } from "@/lib/services";
import { EMBEDDED_DATABASE_POLL_MS, getPglite, inTransaction, queryRows } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { enqueueInTransaction } from "@/lib/jobs/outbox";
import { log } from "@/lib/log";
import { retryChainJobEvent } from "./job-events";
import { configuredUrlPolicy, type SentAttempt, sendAttempt, targetOf } from "./attempt";

/**
 * First attempts of new dispatches, sent straight from this process: no job run per event.
 * A loop claims due dispatches in batches (one statement: a lease on each, with its event and
 * endpoint), sends them concurrently over the endpoints' keep-alive connections, and records the
 * results of all attempts that finished meanwhile in one statement (group commit). A dispatch
 * whose first attempt failed gets its `webhook-deliver` job in the same transaction: the retry
 * chain (immediate retry, then WEBHOOK_RETRY_SCHEDULE) stays the job's.
 *
 * Durability: the dispatch row, committed with the event, is the work item. A process killed
 * mid-send leaves its dispatches leased; they are claimed again when the lease runs out (at once
 * on the embedded database, which only the restarted process can own), so nothing is lost, and a
 * delivery the receiver got but the log did not is sent again (at-least-once: receivers dedupe on
 * the event id, docs/webhooks.md).
 */

/** How long a claimed dispatch stays with its process: a send takes at most the 5 s delivery timeout. */
export const FIRST_ATTEMPT_LEASE_MS = 30_000;
/** Deliveries in flight per process (each mostly waits on its receiver). */
const MAX_IN_FLIGHT = 256;
const CLAIM_BATCH = 256;
/**
 * The embedded database has no autovacuum: every dispatch leaves a dead version in the pending
 * index, which each claim would walk again, and the planner's statistics stay those of an empty
 * table. After this many recorded first attempts the process vacuums and analyzes the table.
 */
const VACUUM_AFTER_RECORDED = 5000;
/**
 * Looks for work left by other instances (or by expired leases) this often; new events wake it at once. On the
 * embedded database every EMBEDDED_DATABASE_POLL_MS instead: no other instance writes it.
 */
const POLL_MS = 500;

// The lease is `nextAttemptAt` of a pending dispatch (otherwise unused before the first attempt).
const LEASABLE = `status = 'pending' AND attempts = 0 AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= $1::timestamp(3))`;
const CLAIMED_WITH_TARGET = `
    SELECT c.id, c."workspaceId", c."eventId", ev.body, ev.type, e.id AS "endpointId", e.url, e.secret
    FROM claimed c
    LEFT JOIN webhook_events ev ON ev.id = c."eventId" AND ev."workspaceId" = c."workspaceId"
    LEFT JOIN webhook_endpoints e ON e."workspaceId" = c."workspaceId"
    ORDER BY c."createdAt", c.id`;

// Dispatches this process just committed, by id (primary-key lookups): the common case, and
// cheap however many dispatches the table holds (the embedded database never vacuums, so a scan
// of the pending index also walks every dispatch that was ever pending).
const CLAIM_BY_ID_STATEMENT = `
    WITH claimed AS (
      UPDATE webhook_dispatches d SET "nextAttemptAt" = $2::timestamp(3)
      WHERE d.id = ANY($3::text[]) AND d.${LEASABLE}
      RETURNING d.id, d."workspaceId", d."eventId", d."createdAt"
    )${CLAIMED_WITH_TARGET}`;

// Any due dispatch (other instances', expired leases, wakes missed): the poll and the start.
// Oldest first, so receipt order within an endpoint follows emit order as far as concurrency allows.
const CLAIM_STATEMENT = `
    WITH claimed AS (
      UPDATE webhook_dispatches d SET "nextAttemptAt" = $2::timestamp(3)
      WHERE d.id IN (
        SELECT id FROM webhook_dispatches
        WHERE ${LEASABLE}
        ORDER BY "createdAt" LIMIT $3::int
        FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d."workspaceId", d."eventId", d."createdAt"
    )${CLAIMED_WITH_TARGET}`;

// Every attempt of a batch: the log entries, each endpoint's health (as after its last attempt of
// the batch) and the dispatches (only while still in their first attempt: a dispatch whose lease
// ran out and was sent again by another process is recorded once).
const RECORD_BATCH_STATEMENT = `
    WITH input AS (
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[],
        $9::text[], $10::int[], $11::text[], $12::int[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[])
        AS t(id, "workspaceId", "eventId", "eventType", "dispatchId", url, "remoteAddress", succeeded,
          "requestHeaders", "responseStatus", "responseBody", "durationMs", error, "nextRetryAt", "createdAt", status, "finishedAt")
    ), del AS (
      INSERT INTO webhook_deliveries (id, "workspaceId", "eventId", "eventType", "dispatchId", attempt, trigger, url, "remoteAddress", succeeded,
        "requestHeaders", "responseStatus", "responseBody", "durationMs", error, "nextRetryAt", "createdAt")
      SELECT id, "workspaceId", "eventId", "eventType", "dispatchId", 1, 'initial', url, "remoteAddress", succeeded,
        "requestHeaders"::jsonb, "responseStatus", "responseBody", "durationMs", error, "nextRetryAt"::timestamp(3), "createdAt"::timestamp(3)
      FROM input
      RETURNING id
    ), health AS (
      SELECT * FROM unnest($18::text[], $19::text[], $20::boolean[], $21::int[], $22::boolean[], $23::int[])
        AS h(id, at, succeeded, "responseStatus", reset, failures)
    ), ep AS (
      UPDATE webhook_endpoints e SET "lastDeliveryAt" = h.at::timestamp(3), "lastOutcome" = CASE WHEN h.succeeded THEN 'succeeded' ELSE 'failed' END,
        "lastResponseStatus" = h."responseStatus",
        "consecutiveFailures" = CASE WHEN h.reset THEN h.failures ELSE e."consecutiveFailures" + h.failures END, "updatedAt" = h.at::timestamp(3)
      FROM health h WHERE e.id = h.id
    ), disp AS (
      UPDATE webhook_dispatches d SET attempts = 1, status = i.status::"WebhookDispatchStatus",
        "nextAttemptAt" = i."nextRetryAt"::timestamp(3), "finishedAt" = i."finishedAt"::timestamp(3)
      FROM input i WHERE d.id = ANY($5::text[]) AND d.id = i."dispatchId" AND d.attempts = 0 AND d.status = 'pending'
      RETURNING d.id
    )
    SELECT coalesce((SELECT array_agg(id) FROM disp), '{}') AS recorded`;

// A dispatch whose event or endpoint is gone has nothing to send.
const CANCEL_STATEMENT = `
    UPDATE webhook_dispatches SET status = 'cancelled', "finishedAt" = $2::timestamp(3), "nextAttemptAt" = NULL
    WHERE id = ANY($1::text[]) AND attempts = 0`;

// Only the process that owns the embedded database can hold its leases: a restart takes them back at once.
const RELEASE_LEASES_STATEMENT = `UPDATE webhook_dispatches SET "nextAttemptAt" = NULL WHERE status = 'pending' AND attempts = 0 AND "nextAttemptAt" IS NOT NULL`;

interface ClaimedRow {
  id: string;
  workspaceId: string;
  eventId: string;
  body: string | null;
  type: string | null;
  endpointId: string | null;
  url: string | null;
  secret: string | null;
}

interface Finished extends SentAttempt {
  endpointId: string;
}

interface FirstAttempts {
  running: boolean;
  inFlight: number;
  claiming: boolean;
  /** Dispatches committed by this process and not yet claimed, oldest first (claimed by id). */
  ready: string[];
  /** Look for any due dispatch (the poll, the start, a wake without ids, a full scan): claim again. */
  scan: boolean;
  finished: Finished[];
  flushing: Promise<void> | null;
  /** First attempts recorded since the table was last vacuumed (embedded database only). */
  recordedSinceVacuum: number;
  timer: NodeJS.Timeout | null;
  idle: Set<() => void>;
}

const state = defineService(
  "webhooks.first-attempts",
  (): FirstAttempts => ({
    running: false,
    inFlight: 0,
    claiming: false,
    ready: [],
    scan: false,
    finished: [],
    flushing: null,
    recordedSinceVacuum: 0,
    timer: null,
    idle: new Set(),
  }),
  (s) => stopFirstAttempts(s),
);

/** Starts the loop in this process (the server's start). */
export async function startFirstAttempts(): Promise<void> {
  const s = state();
  if (s.running) return;
  const embedded = getPglite() !== undefined;
  if (embedded) await queryRows(RELEASE_LEASES_STATEMENT, []);
  s.running = true;
  s.timer = setInterval(() => wakeFirstAttempts(), embedded ? EMBEDDED_DATABASE_POLL_MS : POLL_MS);
  s.timer.unref();
  wakeFirstAttempts();
}

/**
 * For the server's shutdown: stops claiming and resolves once every attempt in flight has been
 * sent and recorded, before the services it uses (the delivery connections, the database) stop.
 */
export function stopFirstAttemptsNow(): Promise<void> {
  return stopFirstAttempts(state());
}

/** Stops claiming, and resolves once every attempt in flight has been sent and recorded. */
async function stopFirstAttempts(s: FirstAttempts): Promise<void> {
  s.running = false;
  if (s.timer) clearInterval(s.timer);
  while (s.inFlight > 0 || s.claiming || s.flushing || s.finished.length) {
    await new Promise<void>((resolve) => {
      s.idle.add(resolve);
      setTimeout(resolve, 50).unref();
    });
    if (!s.flushing && s.finished.length && s.inFlight === 0) void flush(s);
  }
}

function settle(s: FirstAttempts): void {
  for (const resolve of s.idle) resolve();
  s.idle.clear();
}

/**
 * New dispatches were committed (by this process): claim them now instead of at the next poll.
 * With their ids they are claimed by id; without, the next claim looks for any due dispatch.
 */
export function wakeFirstAttempts(dispatchIds?: readonly string[]): void {
  const s = state();
  if (!s.running) return;
  if (dispatchIds) s.ready.push(...dispatchIds);
  else s.scan = true;
  if (!s.claiming) void claimLoop(s);
}

async function claimLoop(s: FirstAttempts): Promise<void> {
  s.claiming = true;
  try {
    while (s.running && (s.ready.length || s.scan)) {
      const room = Math.min(CLAIM_BATCH, MAX_IN_FLIGHT - s.inFlight);
      if (room <= 0) break; // claimed again as attempts finish
      const now = Date.now();
      const times = [sqlTime(new Date(now)), sqlTime(new Date(now + FIRST_ATTEMPT_LEASE_MS))];
      let rows: ClaimedRow[];
      if (s.ready.length) {
        rows = await queryRows<ClaimedRow>(CLAIM_BY_ID_STATEMENT, [...times, s.ready.splice(0, room)]);
      } else {
        s.scan = false;
        rows = await queryRows<ClaimedRow>(CLAIM_STATEMENT, [...times, room]);
        if (rows.length === room) s.scan = true;
      }
      const cancelled: string[] = [];
      for (const row of rows) {
        const { event, endpoint } = targetOf(row);
        if (!event || !endpoint) {
          cancelled.push(row.id);
          continue;
        }
        s.inFlight++;
        const retryInMs = 0; // the immediate retry (attempt 2) is the job's first step
        sendAttempt(
          { workspaceId: row.workspaceId, eventId: row.eventId, dispatchId: row.id, attempt: 1, trigger: "initial", retryInMs },
          endpoint,
          event,
          configuredUrlPolicy(),
        )
          .then((sent) => {
            s.finished.push({ ...sent, endpointId: endpoint.id });
          })
          .catch((err) => log.error("webhook first attempt failed before sending; its lease will run out and it is sent again", { dispatchId: row.id, err }))
          .finally(() => {
            s.inFlight--;
            if (!s.flushing) s.flushing = flush(s);
            if (!s.claiming && (s.ready.length || s.scan)) void claimLoop(s);
          });
      }
      if (cancelled.length) await queryRows(CANCEL_STATEMENT, [cancelled, sqlTime(new Date())]);
    }
  } catch (err) {
    // Ids taken off the queue by a failed claim are still pending: the next poll's scan finds them.
    log.error("webhook first attempts: claiming failed; retrying at the next poll", { err });
  } finally {
    s.claiming = false;
    settle(s);
  }
}

/** Records every finished attempt in one statement; attempts that finish meanwhile go in the next. */
async function flush(s: FirstAttempts): Promise<void> {
  // Let the attempts finishing in this turn of the event loop join the batch.
  await new Promise<void>((resolve) => setImmediate(resolve));
  try {
    while (s.finished.length) {
      const batch = s.finished.splice(0, 500);
      try {
        await recordBatch(batch);
        s.recordedSinceVacuum += batch.length;
      } catch (err) {
        // Their leases run out and they are sent again: at-least-once, never lost.
        log.error("webhook first attempts: recording failed", { count: batch.length, err });
      }
    }
    await vacuumIfDue(s);
  } finally {
    s.flushing = null;
    settle(s);
  }
}

async function vacuumIfDue(s: FirstAttempts): Promise<void> {
  const pglite = getPglite();
  if (!pglite || s.recordedSinceVacuum < VACUUM_AFTER_RECORDED) return;
  s.recordedSinceVacuum = 0;
  try {
    await pglite.exec("VACUUM (ANALYZE) webhook_dispatches");
  } catch (err) {
    log.warn("webhook first attempts: vacuuming the dispatches failed", { err });
  }
}

async function recordBatch(batch: Finished[]): Promise<void> {
  const column = <T>(pick: (f: Finished) => T) => batch.map(pick);
  const health = new Map<string, { at: string; succeeded: boolean; status: number | null; reset: boolean; failures: number }>();
  for (const f of batch) {
    const d = f.delivery;
    const h = health.get(f.endpointId) ?? { at: "", succeeded: false, status: null, reset: false, failures: 0 };
    h.at = d.createdAt.toISOString();
    h.succeeded = d.succeeded;
    h.status = d.responseStatus;
    if (d.succeeded) Object.assign(h, { reset: true, failures: 0 });
    else h.failures++;
    health.set(f.endpointId, h);
  }
  const healthRows = [...health.entries()];
  const params = [
    column((f) => f.delivery.id),
    column((f) => f.delivery.workspaceId),
    column((f) => f.delivery.eventId),
    column((f) => f.delivery.eventType),
    column((f) => f.delivery.dispatchId),
    column((f) => f.delivery.url),
    column((f) => f.delivery.remoteAddress),
    column((f) => f.delivery.succeeded),
    column((f) => JSON.stringify(f.delivery.requestHeaders)),
    column((f) => f.delivery.responseStatus),
    column((f) => f.delivery.responseBody),
    column((f) => f.delivery.durationMs),
    column((f) => f.delivery.error),
    column((f) => sqlTime(f.delivery.nextRetryAt)),
    column((f) => sqlTime(f.delivery.createdAt)),
    column((f) => f.dispatchStatus),
    column((f) => sqlTime(f.finishedAt)),
    healthRows.map(([id]) => id),
    healthRows.map(([, h]) => h.at),
    healthRows.map(([, h]) => h.succeeded),
    healthRows.map(([, h]) => h.status),
    healthRows.map(([, h]) => h.reset),
    healthRows.map(([, h]) => h.failures),
  ];
  // All delivered (the usual batch): the one statement is its own transaction.
  if (!batch.some((f) => f.dispatchStatus === "retrying")) {
    await queryRows(RECORD_BATCH_STATEMENT, params);
    return;
  }
  await inTransaction(async (tx) => {
    const [row] = await tx.queryRows<{ recorded: string[] }>(RECORD_BATCH_STATEMENT, params);
    // Failed first attempts continue as the retry job, committed with the failure.
    const recorded = new Set(row?.recorded ?? []);
    const retries = batch.filter((f) => f.dispatchStatus === "retrying" && recorded.has(f.delivery.dispatchId!));
    return enqueueInTransaction(
      tx,
      retries.map((f) => retryChainJobEvent({ dispatchId: f.delivery.dispatchId!, workspaceId: f.delivery.workspaceId })),
    );
  }).then((afterCommit) => afterCommit());
}
