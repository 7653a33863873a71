import { getDb } from "@/lib/db/client";
import { ensureThumbnails } from "@/lib/creatives/renditions";
import { log } from "@/lib/log";

const PAGE = 200;

/**
 * Operator backfill: renders the missing thumbnails of every ready creative (of one workspace, or
 * all), oldest first, one at a time (a 27 MB original takes a core for a moment). Creatives made
 * before thumbnails existed would otherwise render on their first view, slowing that page.
 */
export async function backfillThumbnails(input: { workspaceId?: string }): Promise<{ checked: number; ready: number; failed: number }> {
  const db = getDb();
  let checked = 0;
  let ready = 0;
  let failed = 0;
  for (let cursor: string | undefined; ; ) {
    const creatives = await db.creative.findMany({
      where: { status: "ready", ...(input.workspaceId ? { workspaceId: input.workspaceId } : {}) },
      select: { id: true, workspaceId: true, kind: true, storageKey: true, durationMs: true },
      orderBy: { id: "asc" },
      take: PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    for (const creative of creatives) {
      checked++;
      const ok = await ensureThumbnails(creative, "background").catch((err: Error) => {
        log.warn("thumbnail backfill failed", { component: "creatives", creativeId: creative.id, err });
        return false;
      });
      if (ok) ready++;
      else failed++;
    }
    if (creatives.length < PAGE) return { checked, ready, failed };
    cursor = creatives[creatives.length - 1]!.id;
  }
}
