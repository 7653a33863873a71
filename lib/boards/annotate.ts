import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors";
import { addComment } from "@/lib/review/comments";
import type { Reply } from "@/lib/review/schemas";

/**
 * Annotates a creative card: the note becomes a review comment thread on that creative's current
 * version (pinned to a point of an image, or at a time of a video), exactly as add_comment writes it,
 * so it shows in the creative's review panel and sends review.comment. The board's revision rises so
 * open canvases refresh the card's thread count.
 */
export async function annotateBoardCard(
  principal: Principal,
  input: { itemId: string; body: string; pin?: { x: number; y: number } | null; timeSeconds?: number | null },
): Promise<{ creativeId: string; threadId: string; comment: Reply }> {
  const db = getDb();
  const item = await db.boardItem.findFirst({
    where: { id: input.itemId, workspaceId: principal.workspaceId },
    select: { boardId: true, kind: true, creativeId: true },
  });
  if (!item) throw notFound("Board item");
  if (item.kind !== "creative" || !item.creativeId) throw badRequest("itemId: only creative cards take annotations; use a note for anything else");
  const { comment, threadId } = await addComment(principal, { creativeId: item.creativeId, body: input.body, pin: input.pin, timeSeconds: input.timeSeconds });
  await db.board.update({ where: { id: item.boardId }, data: { revision: { increment: 1 } } });
  return { creativeId: item.creativeId, threadId, comment };
}
