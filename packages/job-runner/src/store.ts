import type { JobEventPayload, JsonValue, SendEventInput, SerializedError, StepResult } from "./types";

/**
 * The port to the host's durable store: runs, memoized steps, waits, events and cron schedules.
 * The runner holds no state that a crash could lose; every method here is one durable write or
 * read, and those that check a lease do so atomically with their write.
 */

/** Runs the runner may still drive. */
export const PENDING = ["queued", "running", "sleeping"] as const;

/** A run as the store keeps it (the fields the engine reads). */
export interface JobRunRow {
  id: string;
  /** The function's full id, `<appId>-<functionId>`. */
  functionId: string;
  /** The triggering event (a JobEventPayload). */
  event: unknown;
  status: string;
  /** Attempt of the current step (resets when a step finishes). */
  attempt: number;
  maxAttempts: number;
  requestVersion: number | null;
  startedAt: Date | null;
  nextAt: Date | null;
  leaseOwner: string | null;
  error: unknown;
}

export interface NewRun {
  id: string;
  functionId: string;
  triggerKey: string;
  event: JobEventPayload;
  maxAttempts: number;
  nextAt: Date;
}

export interface StoredStep {
  stepId: string;
  result: StepResult;
}

/** A step result that arrived in a reply, to memoize. */
export interface NewStep {
  stepId: string;
  name?: string;
  result: StepResult;
}

/** A run claimed (leased) by this runner, with what the drive needs to start without re-reading it. */
export interface ClaimedRun {
  run: JobRunRow;
  /** The memoized steps, when known (a run that never started has none); null: load them. */
  steps: StoredStep[] | null;
}

export interface RunState {
  run: JobRunRow;
  steps: StoredStep[];
}

export interface NewWait {
  stepId: string;
  kind: "sleep" | "event";
  name?: string;
  until: Date;
  eventName?: string;
  expression?: string;
}

/** A pending step.waitForEvent that one of a batch's events may satisfy. */
export interface CandidateWait {
  runId: string;
  stepId: string;
  eventName: string;
  expression: string | null;
  /** The waiting run's own triggering event (the expression's `event`). */
  runEvent: unknown;
}

/** A change to an owned run. `clearError` removes the stored error (no value at all); `error` stores one as JSON. */
export interface RunPatch {
  status?: "running" | "sleeping";
  attempt?: number;
  startedAt?: Date;
  nextAt?: Date;
  leaseOwner?: null;
  leaseExpiresAt?: null;
  requestVersion?: number | null;
  error?: SerializedError;
  clearError?: true;
}

export interface CronScheduleRow {
  functionId: string;
  cron: string;
  nextAt: Date;
}

export interface JobStore {
  // ---- events ----
  /** Records events durably; a repeated caller-supplied id is ignored. Returns the event ids. */
  recordEvents(events: SendEventInput[], now: Date): Promise<string[]>;
  /** The oldest events not yet fanned out, and the unresolved, unexpired event waits they may satisfy, oldest first. */
  takeEventsAndWaits(limit: number, now: Date): Promise<{ events: JobEventPayload[]; waits: CandidateWait[] }>;
  /** For a batch of events in order, resolves the candidate waits each satisfies (the first match wins); makes the woken runs due. */
  resolveEventWaitsBatch(events: JobEventPayload[], waits: CandidateWait[], now: Date): Promise<string[]>;

  // ---- runs ----
  /** Creates runs; a run with the same function and trigger key already present is kept. */
  createRuns(runs: NewRun[]): Promise<void>;
  /**
   * Creates the runs `events` triggered and marks those events processed, atomically. The first
   * `lease.count` runs are created already claimed by `lease.owner`.
   */
  createRunsForEvents(
    runs: NewRun[],
    eventIds: string[],
    now: Date,
    lease: { owner: string; count: number; until: Date },
  ): Promise<{ created: number; leased: ClaimedRun[] }>;
  /** Takes up to `limit` due runs for `owner` (oldest due first), except runs of the `limited` functions. */
  claimDueRunsWithState(owner: string, limit: number, now: Date, leaseMs: number, limited: readonly string[]): Promise<ClaimedRun[]>;
  /** Takes due runs of one function, keeping its leased runs across every runner within `concurrency`. */
  claimLimitedRuns(functionId: string, concurrency: number, owner: string, free: number, now: Date, leaseMs: number): Promise<ClaimedRun[]>;
  /** The earliest time a pending, unleased run becomes due; runs of busy `limited` functions are left out. */
  nextDueAt(now: Date, limited: readonly string[]): Promise<Date | null>;
  renewLeases(owner: string, ids: string[], until: Date): Promise<void>;
  /** Drops every lease not held by `owner`; returns how many. */
  releaseForeignLeases(owner: string): Promise<number>;
  releaseLeases(owner: string): Promise<void>;
  loadRunState(runId: string): Promise<RunState | null>;
  /** Updates a pending run only while `owner` still holds it; false when the lease was lost or the run ended. */
  updateOwnedRun(runId: string, owner: string, patch: RunPatch): Promise<boolean>;
  /** Moves a sleeping run's due time to `at` (an event resolved one of its waits meanwhile). */
  advanceSleepingRun(runId: string, at: Date): Promise<void>;
  /** Memoizes step results (first one recorded wins) and checks `owner` still holds the run, in one write. */
  saveStepsOwned(runId: string, owner: string, steps: NewStep[], version: number | null, now: Date): Promise<{ inserted: number; owned: boolean }>;
  /** Ends a run `owner` still holds, releases it and drops its waits; false when the lease was lost or the run had ended. */
  finishOwnedRun(
    runId: string,
    owner: string,
    done: { status: "completed"; output: JsonValue } | { status: "failed"; error: JsonValue },
    version: number | null,
    now: Date,
  ): Promise<boolean>;

  // ---- waits ----
  /** Records sleeps / event waits; already-known or already-fulfilled ones are left alone. */
  addWaits(runId: string, waits: NewWait[]): Promise<void>;
  /** Turns waits that are over into memoized steps; returns how many resolved. */
  settleWaits(runId: string, now: Date): Promise<number>;
  /** The earliest moment a remaining wait needs attention: now if one is resolved, else its timeout. */
  nextWaitAt(runId: string, now: Date): Promise<Date | null>;

  // ---- cron schedules ----
  cronSchedules(functionIds: string[]): Promise<CronScheduleRow[]>;
  /** Creates a schedule row unless one exists. */
  insertCronSchedule(row: CronScheduleRow): Promise<void>;
  /** Moves a schedule from `from` to `to`, only if it is still at `from` (compare-and-set). */
  advanceCronSchedule(functionId: string, cron: string, from: Date, to: Date): Promise<void>;
}
