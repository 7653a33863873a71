import { inngest } from "@/inngest/client";
import { pullWorkspaceLeads, workspacesToPoll } from "@/lib/leads/pull";
import { getConfig } from "@/lib/services";

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
    for (const workspaceId of workspaceIds) {
      const result = await step.run(`pull-${workspaceId}`, async () => {
        const pull = await pullWorkspaceLeads(workspaceId);
        return { stored: pull.stored, errors: [pull.error, ...pull.forms.map((f) => f.error)].filter((e): e is string => e !== null) };
      });
      stored += result.stored;
    }
    return { workspaces: workspaceIds.length, stored };
  },
);
