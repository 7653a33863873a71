import type { Db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import type { JobEventPayload, JsonObject, SendEventInput } from "./types";

/** Records events durably; a repeated caller-supplied id is ignored. Returns the event ids. */
export async function recordEvents(db: Db, events: SendEventInput[], now: Date): Promise<string[]> {
  const rows = events.map((e) => {
    if (!e || typeof e.name !== "string" || !e.name) throw new Error("Every event needs a non-empty name");
    return {
      id: e.id ?? newId("evt"),
      name: e.name,
      data: JSON.parse(JSON.stringify(e.data ?? {})) as JsonObject,
      ts: BigInt(e.ts ?? now.getTime()),
    };
  });
  if (rows.length) await db.jobEvent.createMany({ data: rows, skipDuplicates: true });
  return rows.map((r) => r.id);
}

/** The oldest events not yet fanned out to functions. */
export async function takeUnprocessedEvents(db: Db, limit: number): Promise<JobEventPayload[]> {
  const rows = await db.jobEvent.findMany({ where: { processedAt: null }, orderBy: { createdAt: "asc" }, take: limit });
  return rows.map((r) => ({ id: r.id, name: r.name, data: r.data as JsonObject, ts: Number(r.ts) }));
}

export async function markEventsProcessed(db: Db, ids: string[], now: Date): Promise<void> {
  if (ids.length) await db.jobEvent.updateMany({ where: { id: { in: ids } }, data: { processedAt: now } });
}
