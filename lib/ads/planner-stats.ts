import { getDb, getPglite } from "@/lib/db/client";
import { refreshPlatformPlannerStats } from "@/lib/platforms";
import { defineService } from "@/lib/services";

/**
 * The embedded database runs no autovacuum, so its planner never learns how many ads a
 * workspace holds: with no statistics it sorts the whole workspace for a newest-first page
 * instead of walking the (workspaceId, createdAt, id) index. Refresh the statistics of the ads
 * tables every so many new ads (PostgreSQL's autovacuum does this by itself); the sandbox platform
 * refreshes its own tables when asked (its tables are its own: not named here).
 */
const EVERY = 250;
/** New ads since the last refresh: per service registry (so per database), not per module instance. */
const growth = defineService("ads.planner-growth", () => ({ sinceLast: 0 }));

export async function notePlannerGrowth(newRows: number): Promise<void> {
  if (!getPglite()) return;
  const counter = growth();
  counter.sinceLast += newRows;
  if (counter.sinceLast < EVERY) return;
  counter.sinceLast = 0;
  try {
    await getDb().$executeRawUnsafe("ANALYZE ads, ad_sets, ad_campaigns");
    await refreshPlatformPlannerStats();
  } catch (err) {
    console.warn(`[adloom] could not refresh the ads tables' planner statistics: ${(err as Error).message}`);
  }
}
