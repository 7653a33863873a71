import type { Principal } from "@/lib/auth/principal";
import { mediaPath } from "@/lib/creatives/creative-media";
import { thumbnailPaths } from "@/lib/creatives/renditions";
import { getDb } from "@/lib/db/client";
import { folderScope } from "@/lib/folders/access";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PerformanceLabel } from "@/lib/performance/labels";
import type { BoardCard } from "./schemas";
import { toMajor } from "@/lib/money";
import { rollupClock } from "@/lib/performance/rollup-clock";

/** The creatives' live card data (review state, open threads, last-30-days figures), in four queries whatever the count. */
export async function loadCards(workspaceId: string, creativeIds: string[], scope: Prisma.CreativeWhereInput = {}): Promise<Map<string, BoardCard>> {
  const ids = [...new Set(creativeIds)];
  if (!ids.length) return new Map();
  const db = getDb();
  const [creatives, reviews, performance] = await Promise.all([
    db.creative.findMany({
      where: { id: { in: ids }, workspaceId, ...scope },
      select: { id: true, fileName: true, kind: true, status: true, width: true, height: true, durationMs: true, storageKey: true },
    }),
    db.creativeReview.findMany({ where: { creativeId: { in: ids }, workspaceId }, select: { creativeId: true, status: true, currentVersion: true } }),
    db.creativePerformance.findMany({ where: { creativeId: { in: ids }, workspaceId } }),
  ]);
  const reviewOf = new Map(reviews.map((r) => [r.creativeId, r]));
  const open = await db.reviewComment.groupBy({
    by: ["creativeId", "versionNumber"],
    where: { creativeId: { in: ids }, workspaceId, parentId: null, resolvedAt: null },
    _count: { _all: true },
  });
  const perfOf = new Map(performance.map((p) => [p.creativeId, p]));
  const fallbackCurrency = (await rollupClock(workspaceId)).currency;
  const openOf = new Map(open.map((o) => [`${o.creativeId}:${o.versionNumber}`, o._count._all]));
  const cards = new Map<string, BoardCard>();
  for (const c of creatives) {
    const review = reviewOf.get(c.id);
    const version = review?.currentVersion ?? 1;
    const perf = perfOf.get(c.id);
    const currency = perf?.currency ?? fallbackCurrency;
    cards.set(c.id, {
      id: c.id,
      fileName: c.fileName,
      kind: c.kind,
      status: c.status,
      mediaPath: c.status === "ready" ? mediaPath(c.id) : null,
      thumbnails: c.status === "ready" ? thumbnailPaths(c.id, c.storageKey) : null,
      width: c.width,
      height: c.height,
      durationSeconds: c.durationMs === null ? null : c.durationMs / 1000,
      reviewStatus: review?.status ?? "none",
      openThreads: openOf.get(`${c.id}:${version}`) ?? 0,
      label: (perf?.label as PerformanceLabel | undefined) ?? "neutral",
      currency,
      spend: toMajor(perf?.spendMinor ?? 0, currency),
      impressions: perf?.impressions ?? 0,
      conversions: perf?.conversions ?? 0,
      cpa: perf?.cpa == null ? null : toMajor(Math.round(perf.cpa), currency),
      roas: perf?.roas ?? null,
      ctr: perf?.ctr ?? null,
    });
  }
  return cards;
}

/** The cards of creatives the principal may see (folder-scoped members see only their folders' creatives). */
export async function loadVisibleCards(principal: Principal, creativeIds: string[]): Promise<Map<string, BoardCard>> {
  return loadCards(principal.workspaceId, creativeIds, await folderScope(principal));
}
