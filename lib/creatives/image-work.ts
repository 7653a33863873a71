import os from "node:os";
import { defineService } from "@/lib/services";

/**
 * Image decodes (thumbnails, perceptual hashes) run at most this many at a time in the process.
 * Each holds a libuv worker thread, which file reads and writes need too, and its decoded pixels
 * while it runs; unbounded, an import of 200 large images ran them all beside the transfers,
 * slowing the transfers' disk writes and growing RSS by hundreds of MB (docs/performance.md,
 * bench:import). libvips spreads one decode over the cores already, so more at once would not
 * finish sooner.
 */
export const IMAGE_WORK_SLOTS = Math.max(1, Math.min(4, os.availableParallelism()));

/**
 * "waited-on": someone waits for the result (a page asking for a thumbnail, an import item's
 * perceptual hash before its run can finish); "background": a job's rendering nobody waits for.
 * A free slot goes to waited-on work first, so a burst of background renderings never queues ahead of it.
 */
export type ImageWorkLane = "waited-on" | "background";

class Slots {
  private running = 0;
  private readonly waiting: Record<ImageWorkLane, (() => void)[]> = { "waited-on": [], background: [] };

  constructor(private readonly size: number) {}

  async run<T>(lane: ImageWorkLane, work: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running++;
    else await new Promise<void>((resolve) => this.waiting[lane].push(resolve)); // the finishing one hands its slot over
    try {
      return await work();
    } finally {
      const next = this.waiting["waited-on"].shift() ?? this.waiting.background.shift();
      if (next) next();
      else this.running--;
    }
  }
}

const slots = defineService("creatives.image-work", () => new Slots(IMAGE_WORK_SLOTS));

/** Runs one image decode once a slot is free (waited-on work first, then first come, first served). */
export function withImageWork<T>(work: () => Promise<T>, lane: ImageWorkLane = "waited-on"): Promise<T> {
  return slots().run(lane, work);
}
