import type { JobStore, RunPatch } from "@adloom/job-runner";
import { sqlOf, type Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordEvents, takeEventsAndWaits } from "./event-store";
import {
  claimDueRunsWithState,
  claimLimitedRuns,
  createRuns,
  createRunsForEvents,
  finishOwnedRun,
  loadRunState,
  NO_JSON,
  nextDueAt,
  releaseForeignLeases,
  releaseLeases,
  renewLeases,
  saveStepsOwned,
  toJson,
  updateOwnedRun,
} from "./run-store";
import { addWaits, nextWaitAt, resolveEventWaitsBatch, settleWaits } from "./wait-store";

export { queueDepth } from "./run-store";
export { recordEvents } from "./event-store";

/** A cleared error is SQL NULL (no value), a set one JSON; a patch with neither leaves it. */
function toRunUpdate({ error, clearError, ...rest }: RunPatch): Prisma.JobRunUpdateManyMutationInput {
  if (clearError) return { ...rest, error: NO_JSON };
  return error === undefined ? rest : { ...rest, error: toJson(error) };
}

/**
 * The job runner's store (@adloom/job-runner's JobStore) over the app's job tables
 * (prisma/schema/jobs.prisma), through `db`: Prisma for the cold paths, raw SQL for the hot ones.
 */
export function prismaJobStore(db: Db): JobStore {
  return {
    recordEvents: (events, now) => recordEvents(sqlOf(db), events, now),
    takeEventsAndWaits: (limit, now) => takeEventsAndWaits(db, limit, now),
    resolveEventWaitsBatch: (events, waits, now) => resolveEventWaitsBatch(db, events, waits, now),
    createRuns: (runs) => createRuns(db, runs),
    createRunsForEvents: (runs, eventIds, now, lease) => createRunsForEvents(db, runs, eventIds, now, lease),
    claimDueRunsWithState: (owner, limit, now, leaseMs, limited) => claimDueRunsWithState(db, owner, limit, now, leaseMs, limited),
    claimLimitedRuns: (functionId, concurrency, owner, free, now, leaseMs) => claimLimitedRuns(db, functionId, concurrency, owner, free, now, leaseMs),
    nextDueAt: (now, limited) => nextDueAt(db, now, limited),
    renewLeases: (owner, ids, until) => renewLeases(db, owner, ids, until),
    releaseForeignLeases: (owner) => releaseForeignLeases(db, owner),
    releaseLeases: (owner) => releaseLeases(db, owner),
    loadRunState: (runId) => loadRunState(db, runId),
    updateOwnedRun: (runId, owner, patch) => updateOwnedRun(db, runId, owner, toRunUpdate(patch)),
    advanceSleepingRun: async (runId, at) => {
      await db.jobRun.updateMany({ where: { id: runId, status: "sleeping" }, data: { nextAt: at } });
    },
    saveStepsOwned: (runId, owner, steps, version, now) => saveStepsOwned(runId, owner, steps, version, now),
    finishOwnedRun: (runId, owner, done, version, now) => finishOwnedRun(runId, owner, done, version, now),
    addWaits: (runId, waits) => addWaits(db, runId, waits),
    settleWaits: (runId, now) => settleWaits(db, runId, now),
    nextWaitAt: (runId, now) => nextWaitAt(db, runId, now),
    cronSchedules: (functionIds) => db.jobCronSchedule.findMany({ where: { functionId: { in: functionIds } } }),
    insertCronSchedule: async (row) => {
      await db.jobCronSchedule.createMany({ data: [row], skipDuplicates: true });
    },
    advanceCronSchedule: async (functionId, cron, from, to) => {
      await db.jobCronSchedule.updateMany({ where: { functionId, cron, nextAt: from }, data: { nextAt: to } });
    },
  };
}
