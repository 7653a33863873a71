interface Steps {
  run<T>(id: string, fn: () => Promise<T>): Promise<unknown>;
  sleep(id: string, duration: string): Promise<unknown>;
}

/** A pull a rate-limiting platform turned away: its step key and the wait the platform asked for. */
export interface TurnedAway {
  key: string;
  retryAfterSeconds: number;
}

/**
 * Runs again, once, each pull a rate-limiting platform turned away in this run, not before the wait
 * it asked for: sorted by wait, one durable sleep (step.sleep: no request held, a restart keeps the
 * schedule) up to each wait, counted from after the whole first pass, then that pull's step again.
 * A wait longer than `maxWaitSeconds` (about the schedule's period) is left to the next scheduled run.
 */
export async function pullAgainAfterWaits<T>(
  step: Steps,
  turnedAway: TurnedAway[],
  pullAgain: (key: string) => Promise<T>,
  maxWaitSeconds: number,
): Promise<T[]> {
  const due = turnedAway.filter((t) => t.retryAfterSeconds <= maxWaitSeconds).sort((a, b) => a.retryAfterSeconds - b.retryAfterSeconds);
  const results: T[] = [];
  let slept = 0;
  for (const { key, retryAfterSeconds } of due) {
    if (retryAfterSeconds > slept) {
      await step.sleep(`platform-wait-${key}`, `${Math.ceil(retryAfterSeconds - slept)}s`);
      slept = retryAfterSeconds;
    }
    results.push((await step.run(`${key}-after-wait`, () => pullAgain(key))) as T);
  }
  return results;
}
