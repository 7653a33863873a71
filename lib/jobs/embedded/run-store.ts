import type { Db } from "@/lib/db/client";
import { Prisma, type JobRun } from "@/lib/generated/prisma/client";
import type { JobEventPayload, JsonValue, StepResult } from "./types";

/** Runs the runner may still drive. */
export const PENDING = ["queued", "running", "sleeping"] as const;

export interface NewRun {
  id: string;
  functionId: string;
  triggerKey: string;
  event: JobEventPayload;
  maxAttempts: number;
  nextAt: Date;
}

/** Clears a nullable JSON column (SQL NULL, not JSON null). */
export const NO_JSON = Prisma.DbNull;

export function toJson(value: JsonValue | undefined): Prisma.InputJsonValue | typeof Prisma.JsonNull {
  return value === null || value === undefined ? Prisma.JsonNull : (value as Prisma.InputJsonValue);
}

/** Creates runs; a run with the same function and trigger key already present is kept. */
export async function createRuns(db: Db, runs: NewRun[]): Promise<void> {
  if (!runs.length) return;
  await db.jobRun.createMany({
    data: runs.map((r) => ({ ...r, event: r.event as unknown as Prisma.InputJsonValue, status: "queued" as const })),
    skipDuplicates: true,
  });
}

const leaseFree = (now: Date): Prisma.JobRunWhereInput => ({ OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] });

/** Takes up to `limit` due runs for `owner` (compare-and-set per run, safe across processes). */
export async function claimDueRuns(db: Db, owner: string, limit: number, now: Date, leaseMs: number): Promise<string[]> {
  if (limit <= 0) return [];
  const candidates = await db.jobRun.findMany({
    where: { status: { in: [...PENDING] }, nextAt: { lte: now }, ...leaseFree(now) },
    orderBy: { nextAt: "asc" },
    take: limit,
    select: { id: true },
  });
  const claimed: string[] = [];
  for (const { id } of candidates) {
    const { count } = await db.jobRun.updateMany({
      where: { id, status: { in: [...PENDING] }, ...leaseFree(now) },
      data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
    });
    if (count === 1) claimed.push(id);
  }
  return claimed;
}

/** Extends the leases `owner` holds on `ids`. */
export async function renewLeases(db: Db, owner: string, ids: string[], until: Date): Promise<void> {
  if (ids.length) await db.jobRun.updateMany({ where: { id: { in: ids }, leaseOwner: owner }, data: { leaseExpiresAt: until } });
}

/** Drops every lease not held by `owner`: used on PGlite, where no other process can be alive. */
export async function releaseForeignLeases(db: Db, owner: string): Promise<number> {
  const { count } = await db.jobRun.updateMany({
    where: { leaseOwner: { not: null }, NOT: { leaseOwner: owner } },
    data: { leaseOwner: null, leaseExpiresAt: null },
  });
  return count;
}

export async function releaseLeases(db: Db, owner: string): Promise<void> {
  await db.jobRun.updateMany({ where: { leaseOwner: owner }, data: { leaseOwner: null, leaseExpiresAt: null } });
}

/** Updates a pending run only while `owner` still holds it; false when the lease was lost or the run ended. */
export async function updateOwnedRun(db: Db, id: string, owner: string, data: Prisma.JobRunUpdateManyMutationInput): Promise<boolean> {
  const { count } = await db.jobRun.updateMany({ where: { id, leaseOwner: owner, status: { in: [...PENDING] } }, data });
  return count === 1;
}

export interface RunState {
  run: JobRun;
  steps: { stepId: string; result: StepResult }[];
}

export async function loadRunState(db: Db, id: string): Promise<RunState | null> {
  const run = await db.jobRun.findUnique({ where: { id } });
  if (!run) return null;
  const steps = await db.jobStep.findMany({ where: { runId: id }, orderBy: { seq: "asc" }, select: { stepId: true, result: true } });
  return { run, steps: steps.map((s) => ({ stepId: s.stepId, result: s.result as unknown as StepResult })) };
}

/** Memoizes a step result; the first result recorded for a step wins. */
export async function saveStep(db: Db, runId: string, stepId: string, name: string | undefined, result: StepResult): Promise<void> {
  await db.jobStep.createMany({
    data: [{ runId, stepId, name: name ?? null, result: result as unknown as Prisma.InputJsonValue }],
    skipDuplicates: true,
  });
}

/** The earliest time a pending, unleased run becomes due (to arm the loop's timer). */
export async function nextDueAt(db: Db, now: Date): Promise<Date | null> {
  const next = await db.jobRun.findFirst({
    where: { status: { in: [...PENDING] }, nextAt: { not: null }, ...leaseFree(now) },
    orderBy: { nextAt: "asc" },
    select: { nextAt: true },
  });
  return next?.nextAt ?? null;
}
