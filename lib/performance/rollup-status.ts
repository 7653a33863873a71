import { getDb } from "@/lib/db/client";
import type { Platform } from "@/lib/generated/prisma/enums";

export interface RollupAccountStatus {
  platform: Platform;
  lastRunAt: string;
  lastSuccessAt: string | null;
  lastError: string | null;
}

export interface RollupHealth {
  /** The latest successful pull of any account: the time the stored figures are as of. */
  figuresAsOf: string | null;
  accounts: RollupAccountStatus[];
}

/** The hourly rollup's health per ad account of the workspace, as pull.ts records it. */
export async function rollupHealth(workspaceId: string): Promise<RollupHealth> {
  const rows = await getDb().performanceRollupStatus.findMany({ where: { workspaceId }, orderBy: { platform: "asc" } });
  const successes = rows.map((r) => r.lastSuccessAt).filter((d): d is Date => d !== null);
  return {
    figuresAsOf: successes.length ? new Date(Math.max(...successes.map((d) => d.getTime()))).toISOString() : null,
    accounts: rows.map((r) => ({
      platform: r.platform,
      lastRunAt: r.lastRunAt.toISOString(),
      lastSuccessAt: r.lastSuccessAt?.toISOString() ?? null,
      lastError: r.lastError,
    })),
  };
}
