import { nextFireTime } from "./cron";
import type { FunctionDef } from "./registry";
import type { JobStore } from "./store";

export const SCHEDULED_EVENT = "inngest/scheduled.timer";

/**
 * Starts a run for every cron trigger whose fire time has come, then advances its
 * schedule with compare-and-set. The run's trigger key names the fire time, so a
 * crash between the two writes cannot fire it twice; missed fire times while the
 * server was down collapse into one run. Returns the earliest upcoming fire time.
 */
export async function fireDueCrons(store: JobStore, newId: (prefix: string) => string, registry: readonly FunctionDef[], now: Date): Promise<Date | null> {
  const crons = registry.flatMap((fn) => fn.crons.map((schedule) => ({ fn, schedule })));
  if (!crons.length) return null;
  const rows = await store.cronSchedules([...new Set(crons.map((c) => c.fn.id))]);
  let earliest: Date | null = null;
  for (const { fn, schedule } of crons) {
    const row = rows.find((r) => r.functionId === fn.id && r.cron === schedule.expression);
    let next = row?.nextAt;
    if (!row) {
      next = nextFireTime(schedule, now);
      await store.insertCronSchedule({ functionId: fn.id, cron: schedule.expression, nextAt: next });
    } else if (row.nextAt <= now) {
      const at = row.nextAt;
      await store.createRuns([
        {
          id: newId("run"),
          functionId: fn.id,
          triggerKey: `cron:${schedule.expression}@${at.toISOString()}`,
          event: { id: `cron-${fn.id}-${at.getTime()}`, name: SCHEDULED_EVENT, data: { cron: schedule.expression }, ts: at.getTime() },
          maxAttempts: fn.maxAttempts,
          nextAt: now,
        },
      ]);
      next = nextFireTime(schedule, now);
      await store.advanceCronSchedule(fn.id, schedule.expression, at, next);
    }
    if (next && (!earliest || next < earliest)) earliest = next;
  }
  return earliest;
}
