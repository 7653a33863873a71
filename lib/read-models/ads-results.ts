import { authorize } from "@/lib/auth/authorize";
import type { Principal } from "@/lib/auth/principal";
import { accountResults, rangeProblem, resultAccounts, type AccountResults, type ResultAccount } from "@/lib/performance/results";

export type { AccountResults, AdResult, AdSetResult, CampaignResult, ResultAccount, ResultFigures } from "@/lib/performance/results";

export type AdsResultsView =
  | { state: "no_rollup" }
  | { state: "invalid_range"; problem: string; accounts: ResultAccount[]; account: ResultAccount }
  | { state: "ok"; accounts: ResultAccount[]; results: AccountResults };

/**
 * The Ads page's results, authorized as get_insights is (`ads.read`) and scoped to the member's
 * workspace: one ad account at a time (each has its own currency and days, so accounts are never
 * summed), over a range of its days. The account is the one asked for by id, else the asked
 * platform's default (`?platform=`, as before accounts were told apart), else the first platform's
 * default. A range that is not one answers why instead of figures.
 */
export async function adsResults(
  principal: Principal,
  input: { account?: string; platform?: string; since?: string; until?: string },
): Promise<AdsResultsView> {
  authorize(principal, "ads.read");
  const accounts = await resultAccounts(principal.workspaceId);
  if (!accounts.length) return { state: "no_rollup" };
  const account =
    accounts.find((a) => a.adAccountId === input.account) ??
    accounts.find((a) => a.platform === input.platform) ??
    accounts.find((a) => a.isDefault) ??
    accounts[0]!;
  if (input.since || input.until) {
    const problem = rangeProblem(input.since || input.until || account.today, input.until || account.today);
    if (problem) return { state: "invalid_range", problem, accounts, account };
  }
  const results = await accountResults(principal.workspaceId, account.adAccountId, {
    ...(input.until ? { until: input.until } : {}),
    ...(input.since ? { since: input.since } : {}),
  });
  return results ? { state: "ok", accounts, results } : { state: "no_rollup" };
}
