import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";

export interface RollupAccountStatus {
  platform: Platform;
  lastRunAt: string;
  lastSuccessAt: string | null;
  lastError: string | null;
  /**
   * The platform's default account's IANA time zone as the rollup last read it (its days and its clock; the platform's
   * other accounts are each read in their own); null before its first success.
   */
  timeZone: string | null;
}

export interface RollupHealth {
  /** The latest successful pull of any account: the time the stored figures are as of. */
  figuresAsOf: string | null;
  /** The time zone of the account that pull was of: "Figures as of" is shown on that account's clock. */
  figuresTimeZone: string | null;
  accounts: RollupAccountStatus[];
}

/** The hourly rollup's health per ad account of the workspace, as pull.ts records it. */
export async function rollupHealth(workspaceId: string): Promise<RollupHealth> {
  const db = getDb();
  const [rows, cursors] = await Promise.all([
    db.performanceRollupStatus.findMany({ where: { workspaceId }, orderBy: { platform: "asc" } }),
    db.performanceCursor.findMany({ where: { workspaceId }, select: { platform: true, timeZone: true } }),
  ]);
  const zoneOf = new Map(cursors.map((c) => [c.platform, c.timeZone]));
  const latest = rows
    .filter((r) => r.lastSuccessAt !== null)
    .reduce<(typeof rows)[number] | null>((best, r) => (best && best.lastSuccessAt! >= r.lastSuccessAt! ? best : r), null);
  return {
    figuresAsOf: latest?.lastSuccessAt?.toISOString() ?? null,
    figuresTimeZone: latest ? (zoneOf.get(latest.platform) ?? null) : null,
    accounts: rows.map((r) => ({
      platform: r.platform,
      lastRunAt: r.lastRunAt.toISOString(),
      lastSuccessAt: r.lastSuccessAt?.toISOString() ?? null,
      lastError: r.lastError,
      timeZone: zoneOf.get(r.platform) ?? null,
    })),
  };
}
