import { AsyncLocalStorage } from "node:async_hooks";

/** What a long generation reports while it runs: the dashboard streams these to the page. */
export type ProgressEvent = { type: "status"; message: string } | { type: "text"; delta: string } | { type: "cost"; credits: number; reservedCredits: number };

export type ProgressSink = (event: ProgressEvent) => void;

const sinks = new AsyncLocalStorage<ProgressSink>();

/**
 * Runs `fn` with a listener for the progress of the AI calls inside it. The dashboard wraps a tool call in
 * this, so the call keeps going through callTool (permissions, validation, idempotency) while its text streams.
 */
export function withProgress<T>(sink: ProgressSink, fn: () => Promise<T>): Promise<T> {
  return sinks.run(sink, fn);
}

/** Reports to the caller's listener, when there is one; streaming model calls only happen then. */
export function currentProgress(): ProgressSink | undefined {
  return sinks.getStore();
}
