// How fast this machine runs now, against the pace at which the suite's waits and time limits were set.
//
// The CI machine (2 cores, shared) does not run at one speed: on some days every phase of `npm test` took 2-2.5 times
// its usual wall and CPU time (docs/testing.md, "A machine at a third of its speed"), and every wait sized for the usual
// speed (a page within 20 s, an upload's job within 60 s, a poll within 5 s) ran out. `npm test` measures the pace
// before its first phase, before the server phase and before the budgets, and passes it to each suite in
// ADLOOM_TEST_PACE; `paced(ms)` scales a wait or limit by it. Only waits and limits that exist because the machine may be busy are scaled; a time that belongs
// to the product's behaviour (a retry schedule, a deadline the server enforces) is not.
import crypto from "node:crypto";

/**
 * The median sample of `measureTestPace`'s work on the CI machine at its usual speed (2.6 GHz Xeon), estimated: samples
 * took 113-129 ms on 28 Nov around 21:36 UTC, while clean-clone runs took 1.5-1.6 times their usual wall time.
 */
const REFERENCE_SAMPLE_MS = 80;
const SAMPLES = 15;

/** One sample: the kinds of work the suites' processes do (hashing in native code, JavaScript, allocation and JSON). */
function sample() {
  const started = performance.now();
  const block = Buffer.alloc(1 << 20, 7);
  for (let i = 0; i < 40; i++) crypto.createHash("sha256").update(block).digest();
  let x = 0;
  for (let i = 0; i < 12_000_000; i++) x = (x + i * 7) % 1_000_003;
  const rows = [];
  for (let i = 0; i < 40_000; i++) rows.push({ id: `row_${i}`, n: i + x, tags: ["a", "b"] });
  JSON.parse(JSON.stringify(rows)).sort((a, b) => b.n - a.n);
  return performance.now() - started;
}

/** A pace as the suites use it: never under 1 (a fast machine tightens nothing) nor over 4. */
const bounded = (pace) => Math.min(4, Math.max(1, pace));

/** The machine's pace now: the median of SAMPLES samples over the reference. */
export function measureTestPace() {
  const times = Array.from({ length: SAMPLES }, sample).sort((a, b) => a - b);
  const medianMs = times[Math.floor(SAMPLES / 2)];
  return { pace: bounded(medianMs / REFERENCE_SAMPLE_MS), medianMs, referenceMs: REFERENCE_SAMPLE_MS };
}

/** The pace `npm test` measured (1 when a suite runs on its own). */
export const TEST_PACE = bounded(Number(process.env.ADLOOM_TEST_PACE) || 1);

/** A wait or time limit sized for the usual pace, stretched to this run's. */
export function paced(ms) {
  return Math.round(ms * TEST_PACE);
}

/** A time budget stretched to this run's pace, and how to print it ("budget 1500", or where it came from when stretched). */
export function pacedBudget(ms) {
  const stretched = paced(ms);
  return { ms: stretched, text: stretched === ms ? `budget ${ms}` : `budget ${stretched}: ${ms} at the usual pace, this run at ${TEST_PACE}` };
}

/** A bound stretched to this run's pace but kept under `ceilingMs` (what it must still tell apart, like a 10 s poll). */
export function pacedUnder(ms, ceilingMs) {
  return Math.min(paced(ms), ceilingMs);
}
