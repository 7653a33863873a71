import { queryRows, type Db } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { Prisma, type JobRun } from "@/lib/generated/prisma/client";
import { PENDING, type ClaimedRun, type NewRun, type RunState, type StepResult, type JsonValue } from "@adloom/job-runner";

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

/**
 * The earliest time a pending, unleased run becomes due (to arm the loop's timer). Runs of the
 * `limited` functions (those with a concurrency limit) are left out while one of theirs is being
 * driven: they wait for a slot, which the end of that run (or the next poll) looks for.
 */
export async function nextDueAt(db: Db, now: Date, limited: readonly string[] = []): Promise<Date | null> {
  const busyLimited = limited.length
    ? (
        await db.jobRun.findMany({
          where: { functionId: { in: [...limited] }, status: { in: [...PENDING] }, leaseOwner: { not: null }, leaseExpiresAt: { gte: now } },
          distinct: ["functionId"],
          select: { functionId: true },
        })
      ).map((r) => r.functionId)
    : [];
  const next = await db.jobRun.findFirst({
    where: { status: { in: [...PENDING] }, nextAt: { not: null }, ...leaseFree(now), ...(busyLimited.length ? { functionId: { notIn: busyLimited } } : {}) },
    orderBy: { nextAt: "asc" },
    select: { nextAt: true },
  });
  return next?.nextAt ?? null;
}

// ---- Hot-path statements (raw SQL, tagged templates: every value is a bound parameter). ----
// Prisma's model queries cost several times more CPU than the same raw statement on PGlite, and
// these run once or more per job run; each one also folds what used to be several round trips
// into a single atomic statement.

const PENDING_LIST = "('queued', 'running', 'sleeping')";
const PENDING_SQL = Prisma.raw(PENDING_LIST);

/**
 * Creates the runs `events` triggered and marks those events processed, in one statement.
 * A run whose function and trigger key already exist is kept (so re-processing an event after a
 * crash between the two writes cannot start it twice). The first `lease.count` runs are created
 * already claimed by `lease.owner` (running, leased), and come back with their state so they can
 * be driven at once; the others wait, queued, for a claim. Returns how many runs were created.
 */
export async function createRunsForEvents(
  db: Db,
  runs: NewRun[],
  eventIds: string[],
  now: Date,
  lease: { owner: string; count: number; until: Date } = { owner: "", count: 0, until: now },
): Promise<{ created: number; leased: ClaimedRun[] }> {
  const input = JSON.stringify(
    runs.map((r, i) => ({
      id: r.id,
      functionId: r.functionId,
      triggerKey: r.triggerKey,
      event: r.event,
      maxAttempts: r.maxAttempts,
      nextAt: r.nextAt.toISOString(),
      leased: i < lease.count,
    })),
  );
  const rows = await db.$queryRaw<JobRun[]>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb)
        AS x(id text, "functionId" text, "triggerKey" text, event jsonb, "maxAttempts" int, "nextAt" timestamp(3), leased boolean)
    ), ins AS (
      INSERT INTO job_runs (id, "functionId", "triggerKey", event, status, "maxAttempts", "nextAt", "leaseOwner", "leaseExpiresAt", "startedAt", "createdAt", "updatedAt")
      SELECT id, "functionId", "triggerKey", event,
        CASE WHEN leased THEN 'running'::"JobRunStatus" ELSE 'queued'::"JobRunStatus" END, "maxAttempts", "nextAt",
        CASE WHEN leased THEN ${lease.owner} END, CASE WHEN leased THEN ${sqlTime(lease.until)}::timestamp(3) END, CASE WHEN leased THEN ${sqlTime(now)}::timestamp(3) END,
        ${sqlTime(now)}::timestamp(3), ${sqlTime(now)}::timestamp(3)
      FROM input
      ON CONFLICT DO NOTHING
      RETURNING *
    ), marked AS (
      UPDATE job_events SET "processedAt" = ${sqlTime(now)}::timestamp(3)
      WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb)) AND "processedAt" IS NULL
      RETURNING 1
    )
    SELECT * FROM ins`;
  // (A data-modifying WITH clause runs once whether or not the main query reads it.)
  const leased = rows.filter((r) => lease.count > 0 && r.leaseOwner === lease.owner).map((run) => ({ run, steps: [] }));
  return { created: rows.length, leased };
}

/**
 * Takes up to `limit` due runs for `owner` in one statement (oldest due first; rows another
 * instance is claiming are skipped on PostgreSQL), marks them running, and returns their rows.
 * A run that never started has no steps or waits, so its drive needs no further read. Runs of
 * the `limited` functions are left to claimLimitedRuns.
 */
export async function claimDueRunsWithState(
  db: Db,
  owner: string,
  limit: number,
  now: Date,
  leaseMs: number,
  limited: readonly string[] = [],
): Promise<ClaimedRun[]> {
  if (limit <= 0) return [];
  const until = new Date(now.getTime() + leaseMs);
  const rows = await db.$queryRaw<(JobRun & { fresh: boolean })[]>`
    WITH due AS (
      SELECT id, "startedAt" IS NULL AS fresh FROM job_runs
      WHERE status IN ${PENDING_SQL} AND "nextAt" <= ${sqlTime(now)}::timestamp(3)
        AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${sqlTime(now)}::timestamp(3))
        AND "functionId" NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify(limited)}::jsonb))
      ORDER BY "nextAt" ASC
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE job_runs r SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${sqlTime(until)}::timestamp(3), status = 'running'::"JobRunStatus",
      "startedAt" = COALESCE(r."startedAt", ${sqlTime(now)}::timestamp(3)), "updatedAt" = ${sqlTime(now)}::timestamp(3)
    FROM due
    WHERE r.id = due.id AND r.status IN ${PENDING_SQL} AND (r."leaseExpiresAt" IS NULL OR r."leaseExpiresAt" < ${sqlTime(now)}::timestamp(3))
    RETURNING r.*, due.fresh`;
  return claimedOf(rows);
}

function claimedOf(rows: (JobRun & { fresh: boolean })[]): ClaimedRun[] {
  rows.sort((a, b) => (a.nextAt?.getTime() ?? 0) - (b.nextAt?.getTime() ?? 0));
  return rows.map(({ fresh, ...run }) => ({ run: run as JobRun, steps: fresh ? [] : null }));
}

/**
 * Takes due runs of one function with a concurrency limit: at most `free`, and only as many as
 * leave the function's leased runs (on every runner sharing the database) within `concurrency`.
 * The count and the claim run under a transaction-scoped advisory lock on the function, so two
 * instances claiming at once cannot both see the last free slot.
 */
export async function claimLimitedRuns(
  db: Db,
  functionId: string,
  concurrency: number,
  owner: string,
  free: number,
  now: Date,
  leaseMs: number,
): Promise<ClaimedRun[]> {
  if (free <= 0) return [];
  const until = new Date(now.getTime() + leaseMs);
  const at = sqlTime(now);
  const rows = await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`adloom.job-concurrency:${functionId}`}))::text`;
    return tx.$queryRaw<(JobRun & { fresh: boolean })[]>`
      WITH busy AS (
        SELECT count(*)::int AS n FROM job_runs
        WHERE "functionId" = ${functionId} AND status IN ${PENDING_SQL} AND "leaseOwner" IS NOT NULL AND "leaseExpiresAt" >= ${at}::timestamp(3)
      ), due AS (
        SELECT id, "startedAt" IS NULL AS fresh FROM job_runs
        WHERE "functionId" = ${functionId} AND status IN ${PENDING_SQL} AND "nextAt" <= ${at}::timestamp(3)
          AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${at}::timestamp(3))
        ORDER BY "nextAt" ASC
        LIMIT GREATEST(0, LEAST(${free}::int, ${concurrency}::int - (SELECT n FROM busy)))
        FOR UPDATE SKIP LOCKED
      )
      UPDATE job_runs r SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${sqlTime(until)}::timestamp(3), status = 'running'::"JobRunStatus",
        "startedAt" = COALESCE(r."startedAt", ${at}::timestamp(3)), "updatedAt" = ${at}::timestamp(3)
      FROM due
      WHERE r.id = due.id
      RETURNING r.*, due.fresh`;
  });
  return claimedOf(rows);
}

// Saving steps checks ownership with a plain read when there is no version to record (no new row
// version, no index writes), else records the version while checking.
const SAVE_STEPS_STATEMENT = (recordVersion: boolean) => `
    WITH ins AS (
      INSERT INTO job_steps ("runId", "stepId", name, result)
      SELECT $1::text, e->>'stepId', e->>'name', e->'result' FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(e, ord)
      ORDER BY ord
      ON CONFLICT ("runId", "stepId") DO NOTHING
      RETURNING 1
    ), owned AS (
      ${
        recordVersion
          ? `UPDATE job_runs SET "requestVersion" = $4::int, "updatedAt" = $5::timestamp(3)
              WHERE id = $1::text AND "leaseOwner" = $3::text AND status IN ${PENDING_LIST} RETURNING 1`
          : `SELECT 1 FROM job_runs WHERE id = $1::text AND "leaseOwner" = $3::text AND status IN ${PENDING_LIST}`
      }
    )
    SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM owned)::int AS owned`;
const SAVE_STEPS = { plain: SAVE_STEPS_STATEMENT(false), withVersion: SAVE_STEPS_STATEMENT(true) };

/**
 * Memoizes step results (the first result recorded for a step wins) and, in the same statement,
 * checks that `owner` still holds the run (recording the SDK's request version when it changed).
 * `inserted` < steps.length means another driver recorded one of them first.
 */
export async function saveStepsOwned(
  runId: string,
  owner: string,
  steps: { stepId: string; name?: string; result: StepResult }[],
  version: number | null,
  now: Date,
): Promise<{ inserted: number; owned: boolean }> {
  const input = JSON.stringify(steps.map((s) => ({ stepId: s.stepId, name: s.name ?? null, result: s.result })));
  // Straight through the driver (queryRows): this runs for every step of every run.
  const rows =
    version === null
      ? await queryRows<{ inserted: number; owned: number }>(SAVE_STEPS.plain, [runId, input, owner])
      : await queryRows<{ inserted: number; owned: number }>(SAVE_STEPS.withVersion, [runId, input, owner, version, sqlTime(now)]);
  return { inserted: rows[0]?.inserted ?? 0, owned: (rows[0]?.owned ?? 0) > 0 };
}

const FINISH_RUN_STATEMENT = `
    WITH upd AS (
      UPDATE job_runs SET status = $1::text::"JobRunStatus",
        output = CASE WHEN $2::boolean THEN $3::jsonb ELSE output END,
        error = $4::jsonb,
        "endedAt" = $5::timestamp(3), "nextAt" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
        "requestVersion" = COALESCE($6::int, "requestVersion"), "updatedAt" = $5::timestamp(3)
      WHERE id = $7::text AND "leaseOwner" = $8::text AND status IN ${PENDING_LIST}
      RETURNING id
    ), del AS (
      DELETE FROM job_waits WHERE "runId" IN (SELECT id FROM upd)
    )
    SELECT count(*)::int AS n FROM upd`;

/**
 * Ends a run `owner` still holds (completed with its output, or failed with its error), releases
 * it and drops its waits, in one statement. False when the lease was lost or the run had ended.
 */
export async function finishOwnedRun(
  runId: string,
  owner: string,
  done: { status: "completed"; output: JsonValue } | { status: "failed"; error: JsonValue },
  version: number | null,
  now: Date,
): Promise<boolean> {
  const completed = done.status === "completed";
  const output = completed ? JSON.stringify(done.output ?? null) : null;
  const error = completed ? null : JSON.stringify(done.error ?? null);
  const rows = await queryRows<{ n: number }>(FINISH_RUN_STATEMENT, [done.status, completed, output, error, sqlTime(now), version, runId, owner]);
  return (rows[0]?.n ?? 0) > 0;
}

/** Unfinished runs by state (for the queue-depth metric): running (leased), due (waiting for a runner), scheduled (later). */
export async function queueDepth(db: Db, now: Date): Promise<Record<"running" | "due" | "scheduled", number>> {
  const rows = await db.$queryRaw<{ state: "running" | "due" | "scheduled"; n: number }[]>`
    SELECT CASE
        WHEN "leaseOwner" IS NOT NULL AND "leaseExpiresAt" >= ${sqlTime(now)}::timestamp(3) THEN 'running'
        WHEN "nextAt" IS NOT NULL AND "nextAt" <= ${sqlTime(now)}::timestamp(3) THEN 'due'
        ELSE 'scheduled' END AS state,
      count(*)::int AS n
    FROM job_runs WHERE status IN ${PENDING_SQL} GROUP BY 1`;
  const depth = { running: 0, due: 0, scheduled: 0 };
  for (const row of rows) depth[row.state] = Number(row.n);
  return depth;
}
