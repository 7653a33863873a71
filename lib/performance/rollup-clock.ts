import { getDb } from "@/lib/db/client";
import { Platform } from "@/lib/generated/prisma/enums";

/**
 * The last day the rollup read (the most advanced account's today, each account counting its own days) and the
 * currency of the most advanced platform's figures, or today in UTC and USD before any rollup.
 */
export async function rollupClock(workspaceId: string): Promise<{ today: string; currency: string }> {
  const [platform, account] = await Promise.all([
    getDb().performanceCursor.findFirst({ where: { workspaceId }, orderBy: { today: "desc" } }),
    getDb().performanceAccountCursor.findFirst({ where: { workspaceId }, orderBy: { today: "desc" }, select: { today: true } }),
  ]);
  const today = [platform?.today, account?.today]
    .filter((d) => d !== undefined)
    .sort()
    .at(-1);
  return { today: today ?? new Date().toISOString().slice(0, 10), currency: platform?.currency ?? "USD" };
}

/**
 * The currency of each platform's default ad account: the one the rollup read its insights in (its cursor), or
 * before the first rollup the default account's as connected, else USD. What `adAccountCurrencies` falls back to.
 */
export async function accountCurrencies(workspaceId: string): Promise<Record<Platform, string>> {
  const db = getDb();
  const [cursors, accounts] = await Promise.all([
    db.performanceCursor.findMany({ where: { workspaceId }, select: { platform: true, currency: true } }),
    db.adAccount.findMany({ where: { workspaceId, defaultFor: { not: null } }, select: { platform: true, currency: true } }),
  ]);
  const of = (platform: Platform) => cursors.find((c) => c.platform === platform)?.currency ?? accounts.find((a) => a.platform === platform)?.currency ?? "USD";
  return { platform_a: of(Platform.platform_a), platform_b: of(Platform.platform_b) };
}

/**
 * Each of the workspace's ad accounts' currency (by AdAccount id), which every amount stored from it is in: the one the
 * platform last answered for it (at connect, and at each rollup, which records it on the account), else its platform's
 * (`accountCurrencies`). Accounts differ, also two of one platform (a Meta account in EUR beside one in USD), so money
 * bound to one account is read with its own and never added to another's in a different currency.
 */
export async function adAccountCurrencies(workspaceId: string): Promise<AccountCurrencies> {
  const { accounts, byPlatform } = await accountCurrencyTable(workspaceId);
  const byAccount = new Map(accounts.map((a) => [a.id, a.currency]));
  return (adAccountId, platform) => (adAccountId !== null ? byAccount.get(adAccountId) : undefined) ?? byPlatform[platform];
}

/** What `adAccountCurrencies` answers from, for a query that needs it in SQL: each account's currency and each platform's. */
export async function accountCurrencyTable(
  workspaceId: string,
): Promise<{ accounts: { id: string; currency: string }[]; byPlatform: Record<Platform, string> }> {
  const [byPlatform, accounts] = await Promise.all([
    accountCurrencies(workspaceId),
    getDb().adAccount.findMany({ where: { workspaceId }, select: { id: true, currency: true, platform: true } }),
  ]);
  return { accounts: accounts.map((a) => ({ id: a.id, currency: a.currency ?? byPlatform[a.platform] })), byPlatform };
}

/** An ad account's currency (its platform's for an object whose account is unknown, adAccountId null). */
export type AccountCurrencies = (adAccountId: string | null, platform: Platform) => string;

/**
 * The currencies the workspace's money can be in: each platform's default account's and those of the accounts with
 * campaigns made on them. One currency: every creative's figures cover all of its ads.
 */
export async function currenciesInUse(workspaceId: string): Promise<string[]> {
  const [currencyOf, byPlatform, campaigns] = await Promise.all([
    adAccountCurrencies(workspaceId),
    accountCurrencies(workspaceId),
    getDb().adCampaign.groupBy({ by: ["adAccountId", "platform"], where: { workspaceId } }),
  ]);
  return [...new Set([...Object.values(byPlatform), ...campaigns.map((c) => currencyOf(c.adAccountId, c.platform))])].sort();
}
