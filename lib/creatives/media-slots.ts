import os from "node:os";

/**
 * At most one media tool process (ffmpeg, ffprobe) per CPU core at a time in this process.
 * The job runner drives many runs at once because most of them wait on the network; a burst of
 * video uploads must not turn that into dozens of concurrent transcodes competing for two cores
 * (and their memory). Callers wait their turn in arrival order.
 */
const slots = Math.max(1, os.availableParallelism());
let busy = 0;
const waiting: (() => void)[] = [];

export async function withMediaSlot<T>(work: () => Promise<T>): Promise<T> {
  if (busy >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
  else busy++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  }
}

/** How many media processes may run at once, and how many are running or waiting (for tests). */
export function mediaSlotState(): { slots: number; busy: number; waiting: number } {
  return { slots, busy, waiting: waiting.length };
}
