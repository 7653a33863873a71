import { inngest } from "@/inngest/client";
import { getConfig } from "@/lib/services";
import { commentPullTargets, pullAccountComments, type PullTarget } from "@/lib/moderation/pull";
import { platformWaitSeconds } from "@/lib/platforms";
import { pullAgainAfterWaits, type TurnedAway } from "./platform-waits";

/** Runs come every five minutes: a longer wait is left to the runs after it. */
const MAX_WAIT_SECONDS = 4 * 60;

/** One account's poll; a rate limit is answered with the platform's wait (not thrown, so the step is not retried at once). */
async function pollAccount(target: PullTarget): Promise<{ added: number; retryAfterSeconds?: number }> {
  try {
    return await pullAccountComments(target);
  } catch (err) {
    const wait = platformWaitSeconds(err);
    if (!wait) throw err;
    return { added: 0, retryAfterSeconds: wait };
  }
}

/**
 * Every five minutes: new comments on the workspaces' published ads into the moderation inbox, one
 * step per ad account (a failing account retries alone; the others' steps are checkpointed; a
 * rate-limited one is polled again after the platform's wait, slept durably). Each
 * step takes at most COMMENTS_PER_POLL comments after the account's cursor (lib/moderation/pull.ts).
 * COMMENTS_POLL=0 turns the schedule off.
 */
export const commentsPull = inngest.createFunction(
  { id: "comments-pull", name: "Pull ad comments into the moderation inbox", triggers: [{ cron: "*/5 * * * *" }], retries: 2 },
  async ({ step }) => {
    if (!getConfig().comments.pollEnabled) return { skipped: true };
    const targets = await step.run("list-ad-accounts", () => commentPullTargets());
    let added = 0;
    const turnedAway: TurnedAway[] = [];
    for (const target of targets) {
      const summary = (await step.run(`pull-${target.adAccountId}`, () => pollAccount(target))) as Awaited<ReturnType<typeof pollAccount>>;
      added += summary.added;
      if (summary.retryAfterSeconds) turnedAway.push({ key: `pull-${target.adAccountId}`, retryAfterSeconds: summary.retryAfterSeconds });
    }
    const byKey = new Map(targets.map((t) => [`pull-${t.adAccountId}`, t]));
    const again = await pullAgainAfterWaits(step, turnedAway, (key) => pollAccount(byKey.get(key)!), MAX_WAIT_SECONDS);
    added += again.reduce((n, r) => n + r.added, 0);
    return { accounts: targets.length, added };
  },
);
