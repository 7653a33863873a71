import { inngest } from "@/inngest/client";
import { evaluateWorkspaceRules, workspacesWithRules } from "@/lib/automation/run";

/**
 * Every hour: each workspace's enabled automation rules, one step per workspace (a failing
 * workspace does not stop the rest; a retried step re-evaluates only its own). A (rule, hour)
 * run is recorded once and acted on under the rule's evaluation slot, so a re-run, a run-now or a
 * second instance waits for the one acting and answers its run instead of acting twice.
 */
export const automationRules = inngest.createFunction(
  { id: "automation-rules", name: "Evaluate automation rules", triggers: [{ cron: "0 * * * *" }], retries: 2 },
  async ({ step }) => {
    const workspaces = await step.run("list-workspaces", () => workspacesWithRules());
    let runs = 0;
    for (const workspaceId of workspaces) {
      const results = await step.run(`evaluate-${workspaceId}`, async () =>
        (await evaluateWorkspaceRules(workspaceId)).map((r) => ({ ruleId: r.ruleId, error: r.error })),
      );
      runs += results.length;
    }
    return { workspaces: workspaces.length, rules: runs };
  },
);
