// The public API of @adloom/job-runner (see README.md). Nothing else is for import.
export { EmbeddedRunner, FUNCTION_FAILED_EVENT, type RunnerLogger, type RunnerOptions } from "./runner";
export { embeddedClientOptions, type ClientHost } from "./client-options";
export { createEmbeddedFetch, type EventApiHost } from "./event-api";
export { JobSignals, type CheckpointHandler } from "./signals";
export { exponentialBackoff, type BackoffFn } from "./backoff";
export { buildRegistry, DEFAULT_RETRIES, HONOURED_OPTIONS, type FunctionDef } from "./registry";
export { SCHEDULED_EVENT } from "./cron-scheduler";
export { matchesWait } from "./matching";
export { canonicalJson, EMBEDDED_ORIGIN, signBody, type ServeHandler, type StepResult } from "./inngest-internals";
export {
  PENDING,
  type CandidateWait,
  type ClaimedRun,
  type CronScheduleRow,
  type JobRunRow,
  type JobStore,
  type NewRun,
  type NewStep,
  type NewWait,
  type RunPatch,
  type RunState,
  type StoredStep,
} from "./store";
export type { Clock, JobEventPayload, JsonObject, JsonValue, SendEventInput, SerializedError } from "./types";
