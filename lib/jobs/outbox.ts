import { inngest } from "@/inngest/client";
import { getConfig } from "@/lib/services";
import { directSql, type SqlClient } from "@/lib/db/client";
import { recordEvents } from "./embedded-store/event-store";
import { jobSignals } from "./embedded/signals";

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
  const ids = await recordEvents(directSql, events, new Date());
  jobSignals().wakeRunners();
  return { ids };
}

/** A job event that must commit together with the caller's rows: it needs an id, so a repeat is harmless. */
export type OutboxEvent = JobEventInput & { id: string };

/**
 * Stores job events in the caller's open transaction `tx`, so they commit together with the rows
 * that make the work necessary, or not at all. Call the returned function once the transaction
 * has committed: with the embedded runner the events are rows of this database and it wakes the
 * runner; with Inngest nothing was written and it sends the events (their ids deduplicate).
 */
export async function enqueueInTransaction(tx: SqlClient, events: OutboxEvent[]): Promise<() => Promise<void>> {
  if (!events.length) return async () => undefined;
  if (getConfig().jobs.mode === "inngest") {
    return async () => {
      await sendEvent(events);
    };
  }
  await recordEvents(tx, events, new Date());
  return async () => jobSignals().wakeRunners();
}
