/**
 * In-process signal from sendEvent to the runner: Next.js loads route bundles and
 * instrumentation as separate module graphs, so the link lives on globalThis.
 */
const g = globalThis as unknown as { __adloomJobWakers?: Set<() => void> };

export function onWake(listener: () => void): () => void {
  (g.__adloomJobWakers ??= new Set()).add(listener);
  return () => g.__adloomJobWakers?.delete(listener);
}

/** Asks every runner in this process to look for work now instead of at its next poll. */
export function wakeRunners(): void {
  for (const listener of g.__adloomJobWakers ?? []) listener();
}
