import { JobSignals } from "@adloom/job-runner";
import { defineService } from "@/lib/services";

/**
 * The process's job signals (wake-ups from sendEvent, step checkpoints): Next.js loads route
 * bundles and instrumentation as separate module graphs, so they are a service of the process's registry.
 */
export const jobSignals = defineService("jobs.signals", () => new JobSignals());
