import type { Principal } from "@/lib/auth/principal";
import { findVisibleCreative } from "@/lib/creatives/list-creatives";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";

/** The creative the principal may see, or 404 (another workspace's, a hidden folder's and a missing one look the same). */
export async function visibleCreativeOr404(principal: Principal, creativeId: string) {
  const row = await findVisibleCreative(principal, creativeId);
  if (!row) throw notFound("Creative");
  return row;
}

/** The creative's current version number (1 until a version is added). */
export async function currentVersionOf(creativeId: string): Promise<number> {
  return (await getDb().creativeReview.findUnique({ where: { creativeId }, select: { currentVersion: true } }))?.currentVersion ?? 1;
}
