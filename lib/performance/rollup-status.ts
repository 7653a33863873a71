import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";
import { type AccountIdentity, accountIdentities, accountOrder } from "./account-identity";

export interface RollupAccountStatus extends AccountIdentity {
  /** The account's own IANA time zone as the rollup last read it; null before its first success. */
  timeZone: string | null;
  /** The account's current day at its last successful read (its clock); null before its first success. */
  today: string | null;
  lastRunAt: string;
  lastSuccessAt: string | null;
  /** Why its last run failed or left it out (not connected); null after a success. */
  lastError: string | null;
}

export interface RollupHealth {
  /** The oldest of the accounts' last successful reads (among those read at least once): no figure is older. */
  figuresAsOf: string | null;
  /** The time zone of the account that read was of: "Figures as of" is shown on that account's clock. */
  figuresTimeZone: string | null;
  accounts: RollupAccountStatus[];
}

/** Records a successful read of the accounts: their figures are current as of now. */
export async function recordAccountsRead(workspaceId: string, platform: Platform, adAccountIds: string[], at = new Date()): Promise<void> {
  const status = { lastRunAt: at, lastSuccessAt: at, lastError: null };
  for (const adAccountId of adAccountIds)
    await getDb().performanceAccountRollupStatus.upsert({ where: { adAccountId }, create: { adAccountId, workspaceId, platform, ...status }, update: status });
}

/** Records why a run did not read the account (a refusal, or not connected); its last success stays. */
export async function recordAccountFailed(workspaceId: string, platform: Platform, adAccountId: string, message: string, at = new Date()): Promise<void> {
  const failure = { lastError: message.slice(0, 500), lastRunAt: at };
  await getDb().performanceAccountRollupStatus.upsert({ where: { adAccountId }, create: { adAccountId, workspaceId, platform, ...failure }, update: failure });
}

/** Forgets the platform's accounts the rollup no longer reads (no ads left on them, no longer the default). */
export async function forgetAccountsNotRead(workspaceId: string, platform: Platform, readIds: string[]): Promise<void> {
  await getDb().performanceAccountRollupStatus.deleteMany({ where: { workspaceId, platform, adAccountId: { notIn: readIds } } });
}

/** The hourly rollup's health per ad account of the workspace (each of a platform's accounts its own), as pull.ts records it. */
export async function rollupHealth(workspaceId: string): Promise<RollupHealth> {
  const db = getDb();
  const [rows, cursors] = await Promise.all([
    db.performanceAccountRollupStatus.findMany({ where: { workspaceId } }),
    db.performanceAccountCursor.findMany({ where: { workspaceId }, select: { adAccountId: true, timeZone: true, today: true } }),
  ]);
  const identities = await accountIdentities(workspaceId, rows);
  const cursorOf = new Map(cursors.map((c) => [c.adAccountId, c]));
  const accounts = rows
    .map((r, i) => ({
      ...identities[i]!,
      timeZone: cursorOf.get(r.adAccountId)?.timeZone ?? null,
      today: cursorOf.get(r.adAccountId)?.today ?? null,
      lastRunAt: r.lastRunAt.toISOString(),
      lastSuccessAt: r.lastSuccessAt?.toISOString() ?? null,
      lastError: r.lastError,
    }))
    .sort(accountOrder);
  // The stalest figures set the time: an account read an hour ago does not make another one's day-old figures current.
  const oldest = accounts
    .filter((a) => a.lastSuccessAt !== null)
    .reduce<RollupAccountStatus | null>((best, a) => (best && best.lastSuccessAt! <= a.lastSuccessAt! ? best : a), null);
  return { figuresAsOf: oldest?.lastSuccessAt ?? null, figuresTimeZone: oldest?.timeZone ?? null, accounts };
}
