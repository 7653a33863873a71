import { getDb } from "@/lib/db/client";

/**
 * The last day the rollup read (the most advanced account's today) and the currency its figures are in, or
 * today in UTC and USD before any rollup.
 */
export async function rollupClock(workspaceId: string): Promise<{ today: string; currency: string }> {
  const cursor = await getDb().performanceCursor.findFirst({ where: { workspaceId }, orderBy: { today: "desc" } });
  return { today: cursor?.today ?? new Date().toISOString().slice(0, 10), currency: cursor?.currency ?? "USD" };
}
