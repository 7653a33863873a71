import { describe, expect, it } from "vitest";
import { mediaSlotState, withMediaSlot } from "./media-slots";
import { runMediaTool } from "./media-tools";

describe("media slots", () => {
  it("runs at most one media process per core, the others waiting in order", async () => {
    const { slots } = mediaSlotState();
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const tasks = Array.from({ length: slots * 3 }, (_, i) =>
      withMediaSlot(async () => {
        started.push(i);
        peak = Math.max(peak, ++running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return i;
      }),
    );
    expect(await Promise.all(tasks)).toEqual(tasks.map((_, i) => i));
    expect(peak).toBe(slots);
    expect(started).toEqual([...started].sort((a, b) => a - b));
    expect(mediaSlotState()).toEqual({ slots, busy: 0, waiting: 0 });
  });

  it("frees the slot of a failed process", async () => {
    const { slots } = mediaSlotState();
    const failures = Array.from({ length: slots + 1 }, () => runMediaTool("/bin/false", [], 5_000).catch((e: Error) => e.message));
    // Real processes, queued behind the slots: all of them end and report their failure.
    for (const message of await Promise.all(failures)) expect(message).toMatch(/^false failed/);
    expect(mediaSlotState()).toEqual({ slots, busy: 0, waiting: 0 });
  });

  it("starts a queued process's timeout only when it gets its slot", async () => {
    const { slots } = mediaSlotState();
    // Each sleep takes 0.3 s with a 1 s timeout: queued ones would time out if waiting counted.
    const runs = Array.from({ length: slots * 4 }, () => runMediaTool("/bin/sleep", ["0.3"], 1_000));
    await expect(Promise.all(runs)).resolves.toHaveLength(slots * 4);
  });
});
