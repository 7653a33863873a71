import { inngest } from "@/inngest/client";
import { getConfig } from "@/lib/services";
import { getDb } from "@/lib/db/client";
import { recordEvents } from "./embedded/event-store";
import { wakeRunners } from "./embedded/wake";

/**
 * The outbox: the one way the domain starts background work, whatever runs the jobs (the
 * embedded runner or Inngest). Domain modules import this file and nothing else of lib/jobs.
 */

/** An event that starts background work. `id` deduplicates: a second event with the same id is ignored. */
export interface JobEventInput {
  name: string;
  data?: Record<string, unknown>;
  id?: string;
}

/**
 * Sends events after your transaction commits. Embedded mode records them in the database and
 * nudges the in-process runner; Inngest mode sends them to Inngest.
 */
export async function sendEvent(event: JobEventInput | JobEventInput[]): Promise<{ ids: string[] }> {
  const events = Array.isArray(event) ? event : [event];
  if (!events.length) return { ids: [] };
  if (getConfig().jobs.mode === "inngest") {
    return inngest.send(events.map((e) => ({ name: e.name, data: e.data ?? {}, ...(e.id ? { id: e.id } : {}) })));
  }
  const ids = await recordEvents(getDb(), events, new Date());
  wakeRunners();
  return { ids };
}

/**
 * Whether a job event can be written by the caller's own SQL statement, together with the rows
 * that make the work necessary (so they are stored together or not at all). True with the
 * embedded runner, whose events are rows of this database; with Inngest the caller's statement
 * skips the row and `outboxCommitted` sends the event instead.
 */
export function outboxIsInline(): boolean {
  return getConfig().jobs.mode === "embedded";
}

/** SQL expressions (usually typed parameters such as `$4::text`) of one outbox row's columns. */
export interface OutboxColumns {
  id: string;
  name: string;
  /** jsonb */
  data: string;
  /** bigint: the event's epoch milliseconds */
  ts: string;
  /** timestamp(3) */
  createdAt: string;
}

/**
 * The INSERT that writes one job event row, for a CTE of the caller's statement: one row per row
 * of `from` satisfying `where` (a repeated event id is ignored). Constant for constant arguments,
 * so the caller's statement stays one prepared text.
 */
export function outboxInsertSql(columns: OutboxColumns, from: string, where: string): string {
  return `INSERT INTO job_events (id, name, data, ts, "createdAt")
      SELECT ${columns.id}, ${columns.name}, ${columns.data}, ${columns.ts}, ${columns.createdAt}
      FROM ${from} WHERE ${where}
      ON CONFLICT DO NOTHING`;
}

/**
 * After the statement that (maybe) wrote the events committed: written rows are picked up now
 * (`inline`), otherwise the events are sent. Needs an id on every event, so a repeat is harmless.
 */
export async function outboxCommitted(events: (JobEventInput & { id: string })[], inline: boolean): Promise<void> {
  if (!events.length) return;
  if (inline) wakeRunners();
  else await sendEvent(events);
}
