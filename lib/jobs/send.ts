import { inngest } from "@/inngest/client";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { recordEvents } from "./embedded/event-store";
import { wakeRunners } from "./embedded/wake";

/** An event that starts background work. `id` deduplicates: a second event with the same id is ignored. */
export interface JobEventInput {
  name: string;
  data?: Record<string, unknown>;
  id?: string;
}

/**
 * The one way the domain starts background work. Call it after your transaction commits.
 * Embedded mode records the event in the database and nudges the in-process runner;
 * Inngest mode sends it to Inngest.
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
