import { defineService } from "@/lib/services";

/**
 * In-process signal from sendEvent to the runner: Next.js loads route bundles and
 * instrumentation as separate module graphs, so the link is a service of the process's registry.
 */
const wakers = defineService("jobs.wakers", () => new Set<() => void>());

export function onWake(listener: () => void): () => void {
  const listeners = wakers();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Asks every runner in this process to look for work now instead of at its next poll. */
export function wakeRunners(): void {
  for (const listener of wakers()) listener();
}
