import { inngest } from "@/inngest/client";
import { evaluateWorkspace, rollupAccount, rollupTargets } from "@/lib/performance/rollup";

/**
 * Every hour: pulls each ad account's insights (one step per workspace and account: a failing
 * account is recorded and the others go on), then labels the workspace's creatives and decides
 * its creative tests (one step per workspace). Each step is idempotent, so a run killed midway
 * and run again ends in the same state with no event twice.
 */
export const performanceRollup = inngest.createFunction(
  { id: "performance-rollup", name: "Hourly performance rollup", triggers: [{ cron: "5 * * * *" }], retries: 2 },
  async ({ step }) => {
    const targets = await step.run("targets", () => rollupTargets());
    let failed = 0;
    let changes = 0;
    for (const target of targets) {
      for (const platform of target.platforms) {
        const outcome = await step.run(`pull-${target.workspaceId}-${platform}`, () => rollupAccount(target.workspaceId, platform));
        if (outcome && !outcome.ok) failed++;
      }
      const evaluation = await step.run(`evaluate-${target.workspaceId}`, async () => {
        const e = await evaluateWorkspace(target.workspaceId);
        return { changes: e.changes.length, decidedTests: e.decidedTests.length };
      });
      changes += evaluation.changes;
    }
    return { workspaces: targets.length, failedAccounts: failed, labelChanges: changes };
  },
);
