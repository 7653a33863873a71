import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import type { Platform } from "@/lib/generated/prisma/enums";
import { accountResults, rangeProblem, resultAccounts, type AccountResults } from "@/lib/performance/results";

export type { AccountResults, AdResult, AdSetResult, CampaignResult, ResultFigures } from "@/lib/performance/results";

export type AdsResultsView =
  | { state: "no_rollup" }
  | { state: "invalid_range"; problem: string; platforms: Platform[]; platform: Platform }
  | { state: "ok"; platforms: Platform[]; results: AccountResults };

/**
 * The Ads page's results, authorized as get_insights is (`ads.read`) and scoped to the member's
 * workspace: one ad account (platform) at a time, over a range of its days. A range that is not
 * one answers why instead of figures.
 */
export async function adsResults(principal: Principal, input: { platform?: string; since?: string; until?: string }): Promise<AdsResultsView> {
  authorize(principal, "ads.read");
  const accounts = await resultAccounts(principal.workspaceId);
  if (!accounts.length) return { state: "no_rollup" };
  const platforms = accounts.map((a) => a.platform);
  const platform = platforms.find((p) => p === input.platform) ?? platforms[0]!;
  if (input.since || input.until) {
    const today = accounts.find((a) => a.platform === platform)!.today;
    const problem = rangeProblem(input.since || input.until || today, input.until || today);
    if (problem) return { state: "invalid_range", problem, platforms, platform };
  }
  const results = await accountResults(principal.workspaceId, platform, {
    ...(input.until ? { until: input.until } : {}),
    ...(input.since ? { since: input.since } : {}),
  });
  return results ? { state: "ok", platforms, results } : { state: "no_rollup" };
}
