import { getDb } from "@/lib/db/client";
import { emitEventsInTransaction } from "@/lib/events/emit";

export const LINK_VIEW_EVENT_INTERVAL_MS = 6 * 60 * 60 * 1000;

/**
 * Records that a guest opened a link and emits review.link_viewed, at most once per 6 hours
 * per link. The claim is one conditional update, so concurrent opens emit once. `now` is a
 * parameter so the rule can be tested with a controlled clock.
 */
export async function recordLinkView(link: { id: string; workspaceId: string; name: string }, now: Date = new Date()): Promise<{ emitted: boolean }> {
  const cutoff = new Date(now.getTime() - LINK_VIEW_EVENT_INTERVAL_MS);
  const claimed = await getDb().$transaction(async (tx) => {
    const { count } = await tx.reviewLink.updateMany({
      where: { id: link.id, OR: [{ lastViewEventAt: null }, { lastViewEventAt: { lte: cutoff } }] },
      data: { lastViewEventAt: now },
    });
    if (!count) return null;
    // With the claim, so a claimed view always has its event.
    return emitEventsInTransaction(tx, link.workspaceId, "review.link_viewed", [
      { data: { link: { linkId: link.id, subject: link.name } }, dedupeKey: `review.link_viewed:${link.id}:${now.getTime()}` },
    ]);
  });
  if (!claimed) return { emitted: false };
  await claimed.afterCommit();
  return { emitted: true };
}
