import { checkpointReply, readCheckpoint } from "./inngest-internals";

/**
 * Step checkpoints: with `ctx.fn_id` in a discovery request, the SDK runs a new step and, before
 * going on with the function in the same request, reports the step's result to
 * `POST <api>/v1/checkpoint/<runId>/async`. The client's fetch (event-api.ts) routes that here, to
 * the drive that made the request, which memoizes the result durably before answering; so one
 * executor request can run several steps while a crash still repeats at most the step in flight.
 * A checkpoint for a run no drive in this process is waiting on is refused, and the SDK then falls
 * back to returning the step in its reply (the ordinary protocol).
 */
export type CheckpointHandler = (ops: unknown[]) => Promise<boolean>;

/**
 * The in-process links between the client's fetch (events sent, checkpoints) and the runners:
 * the wake-up signal and the checkpoint handlers. One per process: Next.js loads route bundles
 * and instrumentation as separate module graphs, so the host keeps it where both find it (the
 * app: its service registry) and hands the runner and the client a getter.
 */
export class JobSignals {
  private readonly wakers = new Set<() => void>();
  private readonly checkpoints = new Map<string, CheckpointHandler>();

  onWake(listener: () => void): () => void {
    this.wakers.add(listener);
    return () => this.wakers.delete(listener);
  }

  /** Asks every runner in this process to look for work now instead of at its next poll. */
  wakeRunners(): void {
    for (const listener of this.wakers) listener();
  }

  onCheckpoint(runId: string, handler: CheckpointHandler): () => void {
    this.checkpoints.set(runId, handler);
    return () => {
      if (this.checkpoints.get(runId) === handler) this.checkpoints.delete(runId);
    };
  }

  /** Answers a checkpoint request when `url` is one; null otherwise. */
  async handleCheckpoint(url: URL, request: Request): Promise<Response | null> {
    const checkpoint = await readCheckpoint(url, request);
    if (checkpoint === null) return null;
    if (checkpoint === "malformed") return checkpointReply("malformed");
    const handler = this.checkpoints.get(checkpoint.runId);
    if (!handler) return checkpointReply("no-drive");
    // Refused (lease lost, or another result recorded first): the SDK stops and returns the step.
    return checkpointReply((await handler(checkpoint.ops)) ? "accepted" : "refused");
  }
}
