import { checkpointReply, readCheckpoint } from "./inngest-internals";
import { defineService } from "@/lib/services";

/**
 * Step checkpoints: with `ctx.fn_id` in a discovery request, the SDK runs a new step and, before
 * going on with the function in the same request, reports the step's result to
 * `POST <api>/v1/checkpoint/<runId>/async`. The client's fetch (event-api.ts) routes that here, to
 * the drive that made the request, which memoizes the result durably before answering; so one
 * executor request can run several steps while a crash still repeats at most the step in flight.
 * A checkpoint for a run no drive in this process is waiting on is refused, and the SDK then falls
 * back to returning the step in its reply (the ordinary protocol).
 *
 * Next.js loads route bundles and instrumentation as separate module graphs: the link is a service
 * of the process's registry, like the wake signal.
 */
export type CheckpointHandler = (ops: unknown[]) => Promise<boolean>;

const handlers = defineService("jobs.checkpoints", () => new Map<string, CheckpointHandler>());

export function onCheckpoint(runId: string, handler: CheckpointHandler): () => void {
  handlers().set(runId, handler);
  return () => {
    if (handlers().get(runId) === handler) handlers().delete(runId);
  };
}

/** Answers a checkpoint request when `url` is one; null otherwise. */
export async function handleCheckpoint(url: URL, request: Request): Promise<Response | null> {
  const checkpoint = await readCheckpoint(url, request);
  if (checkpoint === null) return null;
  if (checkpoint === "malformed") return checkpointReply("malformed");
  const handler = handlers().get(checkpoint.runId);
  if (!handler) return checkpointReply("no-drive");
  // Refused (lease lost, or another result recorded first): the SDK stops and returns the step.
  return checkpointReply((await handler(checkpoint.ops)) ? "accepted" : "refused");
}
