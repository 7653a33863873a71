import { inngest } from "@/inngest/client";
import { commentPullTargets, pullAccountComments } from "@/lib/moderation/pull";

/**
 * Every five minutes: new comments on the workspaces' published ads into the moderation inbox, one
 * step per ad account (a failing account retries alone; the others' steps are checkpointed). Each
 * step takes at most COMMENTS_PER_POLL comments after the account's cursor (lib/moderation/pull.ts).
 */
export const commentsPull = inngest.createFunction(
  { id: "comments-pull", name: "Pull ad comments into the moderation inbox", triggers: [{ cron: "*/5 * * * *" }], retries: 2 },
  async ({ step }) => {
    const targets = await step.run("list-ad-accounts", () => commentPullTargets());
    let added = 0;
    for (const target of targets) {
      const summary = await step.run(`pull-${target.adAccountId}`, () => pullAccountComments(target));
      added += summary.added;
    }
    return { accounts: targets.length, added };
  },
);
