import { describe, expect, it } from "vitest";
import { IMAGE_WORK_SLOTS, withImageWork } from "./image-work";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("withImageWork", () => {
  it("never runs more than IMAGE_WORK_SLOTS at once, and a free slot goes to waited-on work before background work", async () => {
    const gates = Array.from({ length: IMAGE_WORK_SLOTS }, deferred);
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const job = (name: string, gate?: Promise<void>) => async () => {
      running++;
      most = Math.max(most, running);
      order.push(name);
      await gate;
      running--;
      return name;
    };
    const holding = gates.map((g, i) => withImageWork(job(`hold-${i}`, g.promise), "background"));
    const background = withImageWork(job("background"), "background");
    const waitedOn = withImageWork(job("waited-on"));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(gates.map((_, i) => `hold-${i}`)); // the slots are full: both wait
    for (const g of gates) g.resolve();
    expect(await Promise.all([...holding, background, waitedOn])).toHaveLength(IMAGE_WORK_SLOTS + 2);
    expect(order.slice(IMAGE_WORK_SLOTS)).toEqual(["waited-on", "background"]);
    expect(most).toBeLessThanOrEqual(IMAGE_WORK_SLOTS);
  });

  it("frees the slot when the work fails", async () => {
    const failures = Array.from({ length: IMAGE_WORK_SLOTS + 1 }, () => withImageWork(() => Promise.reject(new Error("bad image"))));
    for (const f of failures) await expect(f).rejects.toThrow("bad image");
    expect(await withImageWork(async () => "still works")).toBe("still works");
  });
});
