import { notFound } from "@/lib/errors";
import { defaultAccountsOf } from "../accounts";
import type { AdAccountRef } from "../types";
import { advanceClock, sandboxAccount, simulatedNow, type SandboxAccountRow } from "./clock";
import { emptySummary, syncDelivery, type DeliverySummary } from "./delivery";
import { row as oneRow, TABLE } from "./store";

export const MAX_ADVANCE_HOURS = 24 * 90;

/**
 * Moves the workspace's sandbox clock (both platforms) `hours` forward and delivers the hours
 * that passed: what `sandbox advance` runs. Answers one summary over both accounts.
 */
type PlatformSummary = DeliverySummary & { currency: string; objects: { campaigns: number; adSets: number; ads: number } };

export async function advanceSandbox(
  workspaceId: string,
  hours: number,
): Promise<{ workspaceId: string; hours: number; simulatedNow: string } & DeliverySummary & { platforms: Record<string, PlatformSummary> }> {
  // The workspace and its accounts come through the platforms' account API: the sandbox reads no app table.
  const accounts = await defaultAccountsOf(workspaceId);
  if (!accounts) throw notFound("Workspace");
  const total = emptySummary();
  const platforms: Record<string, PlatformSummary> = {};
  let now = Date.now();
  for (const account of accounts) {
    const platform = account.platform;
    if (account.mode !== "sandbox") continue;
    const { row, summary } = await advanceAccount(account, hours);
    now = simulatedNow(row);
    // What the platform holds: lets an operator (or a test) see that nothing was made twice.
    const objects = await objectCounts(row.externalAccountId);
    platforms[platform] = { ...summary, currency: row.currency, objects };
    for (const k of Object.keys(total) as (keyof DeliverySummary)[]) if (k !== "hours") total[k] += summary[k];
  }
  return { workspaceId, simulatedNow: new Date(now).toISOString(), ...total, hours, platforms };
}

/**
 * Moves one sandbox account's clock `hours` forward and delivers the hours that passed. `advanceSandbox` does it for
 * the workspace's default accounts; a test with another account of a platform moves that one's too, to keep them together.
 */
export async function advanceSandboxAccount(account: AdAccountRef, hours: number): Promise<DeliverySummary> {
  return (await advanceAccount(account, hours)).summary;
}

async function advanceAccount(account: AdAccountRef, hours: number): Promise<{ row: SandboxAccountRow; summary: DeliverySummary }> {
  const row = await sandboxAccount(account);
  // Deliver up to now first, so the advanced hours start where real time left off.
  await syncDelivery(row);
  await advanceClock(row, hours * 3600);
  return { row, summary: await syncDelivery(row) };
}

/** How many campaigns, ad sets and ads the account holds. */
export async function objectCounts(accountId: string): Promise<{ campaigns: number; adSets: number; ads: number }> {
  const counts = await oneRow<{ campaigns: number; adSets: number; ads: number }>(
    `SELECT (SELECT count(*)::int FROM ${TABLE.campaigns} WHERE "accountId" = $1) AS campaigns,
            (SELECT count(*)::int FROM ${TABLE.adSets} WHERE "accountId" = $1) AS "adSets",
            (SELECT count(*)::int FROM ${TABLE.ads} WHERE "accountId" = $1) AS ads`,
    accountId,
  );
  return counts ?? { campaigns: 0, adSets: 0, ads: 0 };
}
