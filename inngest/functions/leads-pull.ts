import { inngest } from "@/inngest/client";
import { pullWorkspaceLeads, workspacesToPoll } from "@/lib/leads/pull";
import { getConfig } from "@/lib/services";
import { pullAgainAfterWaits, type TurnedAway } from "./platform-waits";

/** Runs come every minute: a longer wait is left to the runs after it. */
const MAX_WAIT_SECONDS = 50;

/** Workspaces one scheduled run covers (least recently polled first); the rest come at the next minute. */
const WORKSPACES_PER_RUN = 200;

/**
 * Every minute: each workspace's platform_a lead forms are pulled (capped per form, see
 * lib/leads/pull.ts), one step per workspace, so one failing account or form never stops the others
 * (failures are recorded on the form and answered in the step's result, not thrown).
 */
export const leadsPull = inngest.createFunction(
  { id: "leads-pull", name: "Pull lead-ad submissions", triggers: [{ cron: "* * * * *" }], retries: 1, concurrency: { limit: 1 } },
  async ({ step }) => {
    if (!getConfig().leads.pollEnabled) return { skipped: true };
    const workspaceIds = await step.run("workspaces", () => workspacesToPoll(WORKSPACES_PER_RUN));
    let stored = 0;
    const pull = async (workspaceId: string) => {
      const result = await pullWorkspaceLeads(workspaceId);
      return {
        stored: result.stored,
        errors: [result.error, ...result.forms.map((f) => f.error)].filter((e): e is string => e !== null),
        retryAfterSeconds: result.retryAfterSeconds ?? 0,
      };
    };
    const turnedAway: TurnedAway[] = [];
    for (const workspaceId of workspaceIds) {
      const result = (await step.run(`pull-${workspaceId}`, () => pull(workspaceId))) as Awaited<ReturnType<typeof pull>>;
      stored += result.stored;
      if (result.retryAfterSeconds) turnedAway.push({ key: `pull-${workspaceId}`, retryAfterSeconds: result.retryAfterSeconds });
    }
    // Forms a rate-limiting platform turned away are pulled again after its wait (the cursor makes it resume, not repeat).
    const again = await pullAgainAfterWaits(step, turnedAway, (key) => pull(key.slice("pull-".length)), MAX_WAIT_SECONDS);
    stored += again.reduce((n, r) => n + r.stored, 0);
    return { workspaces: workspaceIds.length, stored };
  },
);
