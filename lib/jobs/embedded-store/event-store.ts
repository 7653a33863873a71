import type { Db, SqlClient } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { newId } from "@/lib/ids";
import type { CandidateWait, JobEventPayload, JsonObject, SendEventInput } from "@adloom/job-runner";

const RECORD_EVENTS = `
      INSERT INTO job_events (id, name, data, ts, "createdAt")
      SELECT e->>'id', e->>'name', e->'data', (e->>'ts')::bigint, $2::timestamp(3)
      FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, ord)
      ORDER BY ord
      ON CONFLICT DO NOTHING`;

/**
 * Records events durably through `sql` (the process's connection, or the caller's transaction so
 * they commit with its rows); a repeated caller-supplied id is ignored. Returns the event ids.
 */
export async function recordEvents(sql: SqlClient, events: SendEventInput[], now: Date): Promise<string[]> {
  const rows = events.map((e) => {
    if (!e || typeof e.name !== "string" || !e.name) throw new Error("Every event needs a non-empty name");
    return {
      id: e.id ?? newId("evt"),
      name: e.name,
      data: JSON.parse(JSON.stringify(e.data ?? {})) as JsonObject,
      ts: String(e.ts ?? now.getTime()),
    };
  });
  if (rows.length) await sql.queryRows(RECORD_EVENTS, [JSON.stringify(rows), sqlTime(now)]);
  return rows.map((r) => r.id);
}

/**
 * The oldest events not yet fanned out, and (in the same statement) the unresolved, unexpired
 * event waits whose event name is among them, oldest wait first.
 */
export async function takeEventsAndWaits(db: Db, limit: number, now: Date): Promise<{ events: JobEventPayload[]; waits: CandidateWait[] }> {
  const rows = await db.$queryRaw<
    { kind: string; id: string; name: string; data: unknown; ts: string | null; stepId: string | null; expression: string | null; runEvent: unknown }[]
  >`
    WITH ev AS (
      SELECT id, name, data, ts, "createdAt" FROM job_events WHERE "processedAt" IS NULL ORDER BY "createdAt" ASC LIMIT ${limit}
    )
    SELECT * FROM (
      SELECT 'event' AS kind, id, name, data, ts::text AS ts, NULL::text AS "stepId", NULL::text AS expression, NULL::jsonb AS "runEvent", "createdAt" FROM ev
      UNION ALL
      SELECT 'wait', w."runId", w."eventName", NULL::jsonb, NULL::text, w."stepId", w.expression, r.event, w."createdAt"
      FROM job_waits w JOIN job_runs r ON r.id = w."runId"
      WHERE w.kind = 'event' AND w."resolvedAt" IS NULL AND w.until > ${sqlTime(now)}::timestamp(3) AND w."eventName" IN (SELECT name FROM ev)
    ) x
    ORDER BY kind ASC, "createdAt" ASC`;
  const events: JobEventPayload[] = [];
  const waits: CandidateWait[] = [];
  for (const r of rows) {
    if (r.kind === "event") events.push({ id: r.id, name: r.name, data: r.data as JsonObject, ts: Number(r.ts) });
    else waits.push({ runId: r.id, stepId: r.stepId!, eventName: r.name, expression: r.expression, runEvent: r.runEvent });
  }
  return { events, waits };
}
