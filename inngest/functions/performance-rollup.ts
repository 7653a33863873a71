import { inngest } from "@/inngest/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { evaluateWorkspace, rollupAccount, rollupTargets, type AccountOutcome } from "@/lib/performance/rollup";
import { pullAgainAfterWaits, type TurnedAway } from "./platform-waits";

/** A rate limit's wait up to this long is slept in the run; a longer one is left to the next hour's run. */
const MAX_WAIT_SECONDS = 45 * 60;

/**
 * Every hour: pulls each ad account's insights (one step per workspace and account: a failing
 * account is recorded and the others go on; a rate-limited one is pulled again after the platform's
 * wait, slept durably), then labels each workspace's creatives and decides its creative tests (one
 * step per workspace). Each step is idempotent, so a run killed midway
 * and run again ends in the same state with no event twice.
 */
export const performanceRollup = inngest.createFunction(
  { id: "performance-rollup", name: "Hourly performance rollup", triggers: [{ cron: "5 * * * *" }], retries: 2 },
  async ({ step }) => {
    const targets = await step.run("targets", () => rollupTargets());
    let failed = 0;
    let changes = 0;
    const turnedAway: TurnedAway[] = [];
    const accounts = new Map<string, { workspaceId: string; platform: Platform }>();
    for (const target of targets) {
      for (const platform of target.platforms) {
        const key = `pull-${target.workspaceId}-${platform}`;
        accounts.set(key, { workspaceId: target.workspaceId, platform });
        const outcome = (await step.run(key, () => rollupAccount(target.workspaceId, platform))) as AccountOutcome | null;
        if (outcome && !outcome.ok && outcome.retryAfterSeconds) turnedAway.push({ key, retryAfterSeconds: outcome.retryAfterSeconds });
        else if (outcome && !outcome.ok) failed++;
      }
    }
    // Rate-limited accounts are pulled again after the platform's wait, before the workspaces are evaluated.
    const again = await pullAgainAfterWaits(
      step,
      turnedAway,
      (key) => rollupAccount(accounts.get(key)!.workspaceId, accounts.get(key)!.platform),
      MAX_WAIT_SECONDS,
    );
    failed += turnedAway.length - again.filter((o) => o?.ok).length;
    for (const target of targets) {
      const evaluation = await step.run(`evaluate-${target.workspaceId}`, async () => {
        const e = await evaluateWorkspace(target.workspaceId);
        return { changes: e.changes.length, decidedTests: e.decidedTests.length };
      });
      changes += evaluation.changes;
    }
    return { workspaces: targets.length, failedAccounts: failed, labelChanges: changes };
  },
);
