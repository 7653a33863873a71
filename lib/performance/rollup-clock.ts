import { getDb } from "@/lib/db/client";
import { Platform } from "@/lib/generated/prisma/enums";

/**
 * The last day the rollup read (the most advanced account's today) and the currency its figures are in, or
 * today in UTC and USD before any rollup.
 */
export async function rollupClock(workspaceId: string): Promise<{ today: string; currency: string }> {
  const cursor = await getDb().performanceCursor.findFirst({ where: { workspaceId }, orderBy: { today: "desc" } });
  return { today: cursor?.today ?? new Date().toISOString().slice(0, 10), currency: cursor?.currency ?? "USD" };
}

/**
 * The currency of each platform's ad account, which every amount stored from it is in: the one the rollup read its
 * insights in (its cursor), or before the first rollup the default account's as connected, else USD. Accounts
 * differ (a Meta account in EUR beside a TikTok one in USD), so money bound to one account is read with its own.
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
