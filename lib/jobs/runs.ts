import { APP_ID } from "@/inngest/client";
import { getDb, type Db } from "@/lib/db/client";
import type { JobRun, JobRunStatus } from "@/lib/generated/prisma/client";

/** Introspection of the embedded runner's runs, for operators and tests. */
export interface JobRunInfo {
  id: string;
  functionId: string;
  status: JobRunStatus;
  attempt: number;
  maxAttempts: number;
  event: unknown;
  output: unknown;
  error: unknown;
  createdAt: Date;
  startedAt: Date | null;
  endedAt: Date | null;
  nextAt: Date | null;
}

export interface JobStepInfo {
  stepId: string;
  name: string | null;
  result: unknown;
  createdAt: Date;
}

function toInfo(r: JobRun): JobRunInfo {
  const { id, functionId, status, attempt, maxAttempts, event, output, error, createdAt, startedAt, endedAt, nextAt } = r;
  return { id, functionId, status, attempt, maxAttempts, event, output, error, createdAt, startedAt, endedAt, nextAt };
}

/** Accepts a function's own id ("upload-push") or its full id ("adloom-upload-push"). */
function fullFunctionId(id: string): string {
  return id.startsWith(`${APP_ID}-`) ? id : `${APP_ID}-${id}`;
}

/** Runs, newest first. */
export async function listRuns(
  filter: { functionId?: string; status?: JobRunStatus | JobRunStatus[]; limit?: number } = {},
  db: Db = getDb(),
): Promise<JobRunInfo[]> {
  const rows = await db.jobRun.findMany({
    where: {
      ...(filter.functionId ? { functionId: fullFunctionId(filter.functionId) } : {}),
      ...(filter.status ? { status: { in: Array.isArray(filter.status) ? filter.status : [filter.status] } } : {}),
    },
    orderBy: { createdAt: "desc" },
    take: filter.limit ?? 100,
  });
  return rows.map(toInfo);
}

/** One run with its memoized steps in completion order. */
export async function getRun(id: string, db: Db = getDb()): Promise<(JobRunInfo & { steps: JobStepInfo[] }) | null> {
  const run = await db.jobRun.findUnique({ where: { id }, include: { steps: { orderBy: { seq: "asc" } } } });
  if (!run) return null;
  return { ...toInfo(run), steps: run.steps.map(({ stepId, name, result, createdAt }) => ({ stepId, name, result, createdAt })) };
}

/** Cancels a run that has not finished; its in-flight step (if any) completes but nothing further runs. */
export async function cancelRun(id: string, db: Db = getDb()): Promise<boolean> {
  const { count } = await db.jobRun.updateMany({
    where: { id, status: { in: ["queued", "running", "sleeping"] } },
    data: { status: "cancelled", endedAt: new Date(), nextAt: null },
  });
  if (count) await db.jobWait.deleteMany({ where: { runId: id } });
  return count === 1;
}
