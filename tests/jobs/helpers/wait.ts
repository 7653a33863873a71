import { listRuns, type JobRunInfo } from "@/lib/jobs/runs";
import { paced } from "../../../scripts/test-pace.mjs";

/** Polls until `check` returns a value, or fails after `timeoutMs` (stretched by the run's pace) with the last state. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + paced(timeoutMs);
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last: ${String(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until every run of `functionId` has ended and there are `count` of them. */
export function finishedRuns(functionId: string, count = 1, timeoutMs?: number): Promise<JobRunInfo[]> {
  return eventually(
    async () => {
      const runs = await listRuns({ functionId });
      return runs.length >= count && runs.every((r) => ["completed", "failed", "cancelled"].includes(r.status)) ? runs : undefined;
    },
    timeoutMs,
    `${count} finished run(s) of ${functionId}`,
  );
}
