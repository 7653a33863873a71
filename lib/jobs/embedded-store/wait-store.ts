import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { matchesWait, type CandidateWait, type JobEventPayload, type NewWait } from "@adloom/job-runner";
import { saveStep } from "./run-store";

/** Records sleeps / event waits the SDK reported; already-known or already-fulfilled ones are left alone. */
export async function addWaits(db: Db, runId: string, waits: NewWait[]): Promise<void> {
  if (!waits.length) return;
  const done = await db.jobStep.findMany({ where: { runId, stepId: { in: waits.map((w) => w.stepId) } }, select: { stepId: true } });
  const fresh = waits.filter((w) => !done.some((d) => d.stepId === w.stepId));
  if (fresh.length) await db.jobWait.createMany({ data: fresh.map((w) => ({ runId, ...w })), skipDuplicates: true });
}

/**
 * Turns waits that are over (timer passed, or event arrived) into memoized steps:
 * a sleep or timed-out waitForEvent resolves to null, a matched wait to the event.
 * Returns how many resolved.
 */
export async function settleWaits(db: Db, runId: string, now: Date): Promise<number> {
  const waits = await db.jobWait.findMany({ where: { runId, OR: [{ until: { lte: now } }, { resolvedAt: { not: null } }] } });
  for (const w of waits) {
    const data = w.resolvedAt ? (w.result ?? null) : null;
    await saveStep(db, runId, w.stepId, w.name ?? undefined, { type: "data", data: data as never });
    await db.jobWait.delete({ where: { runId_stepId: { runId, stepId: w.stepId } } });
  }
  return waits.length;
}

/** The earliest moment a remaining wait needs attention: now if one is resolved, else its timeout. */
export async function nextWaitAt(db: Db, runId: string, now: Date): Promise<Date | null> {
  const waits = await db.jobWait.findMany({ where: { runId }, select: { until: true, resolvedAt: true } });
  if (!waits.length) return null;
  if (waits.some((w) => w.resolvedAt)) return now;
  return new Date(Math.min(...waits.map((w) => w.until.getTime())));
}

/**
 * Resolves, for a batch of events in order, the candidate waits each satisfies (the first
 * matching event wins a wait), and makes the woken runs due. Returns the runs to wake.
 */
export async function resolveEventWaitsBatch(db: Db, events: JobEventPayload[], waits: CandidateWait[], now: Date): Promise<string[]> {
  const open = [...waits];
  const woken: string[] = [];
  for (const event of events) {
    for (let i = 0; i < open.length; i++) {
      const w = open[i]!;
      if (w.eventName !== event.name) continue;
      if (!matchesWait(w, event)) continue;
      open.splice(i--, 1);
      const { count } = await db.jobWait.updateMany({
        where: { runId: w.runId, stepId: w.stepId, resolvedAt: null },
        data: { resolvedAt: now, result: event as unknown as Prisma.InputJsonValue },
      });
      if (count === 1) woken.push(w.runId);
    }
  }
  if (woken.length) await db.jobRun.updateMany({ where: { id: { in: woken }, status: { in: ["running", "sleeping"] } }, data: { nextAt: now } });
  return woken;
}
