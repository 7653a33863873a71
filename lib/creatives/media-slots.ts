import os from "node:os";
import { defineService } from "@/lib/services";

/**
 * At most one media tool process (ffmpeg, ffprobe) per CPU core at a time in this process.
 * The job runner drives many runs at once because most of them wait on the network; a burst of
 * video uploads must not turn that into dozens of concurrent transcodes competing for two cores
 * (and their memory). Callers wait their turn in arrival order.
 */
const slots = Math.max(1, os.availableParallelism());
// Shared by every bundle of the process (the job runner's and the routes'), so the bound is per process.
const mediaSlots = defineService("creatives.media-slots", () => ({ busy: 0, waiting: [] as (() => void)[] }));

export async function withMediaSlot<T>(work: () => Promise<T>): Promise<T> {
  const state = mediaSlots();
  if (state.busy >= slots) await new Promise<void>((resolve) => state.waiting.push(resolve));
  else state.busy++;
  try {
    return await work();
  } finally {
    const next = state.waiting.shift();
    if (next) next();
    else state.busy--;
  }
}

/** How many media processes may run at once, and how many are running or waiting (for tests). */
export function mediaSlotState(): { slots: number; busy: number; waiting: number } {
  const { busy, waiting } = mediaSlots();
  return { slots, busy, waiting: waiting.length };
}
