import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, conflict, notFound } from "@/lib/errors";
import type { ReviewLink } from "@/lib/generated/prisma/client";
import { folderScope } from "@/lib/folders/access";
import { guestView, type GuestCreative } from "@/lib/review/guest";
import { createReviewLink, LINK_CREATIVES_MAX, type CreateLinkInput } from "@/lib/review/links";
import type { ReviewLinkView } from "@/lib/review/schemas";
import { stackOrder, toItem } from "./boards";
import { loadCards } from "./cards";
import type { BoardItem } from "./schemas";

/** The guest address of a board shared by a review link. */
export const boardShareUrl = (linkUrl: string) => `${linkUrl}/board`;

/**
 * Shares a board read-only through a review link: the link shares the board's creatives (as they are
 * on the board now) with the usual options, and remembers the board, so its guests see the canvas and
 * comment on its cards. Revoking the link (or deleting the board) ends it.
 */
export async function shareBoard(
  principal: Principal,
  input: { boardId: string; name?: string } & Omit<CreateLinkInput, "name" | "creativeIds" | "folderId">,
): Promise<{ link: ReviewLinkView; token: string; url: string; boardUrl: string }> {
  const db = getDb();
  const board = await db.board.findFirst({ where: { id: input.boardId, workspaceId: principal.workspaceId }, select: { id: true, name: true } });
  if (!board) throw notFound("Board");
  const cards = await db.boardItem.findMany({ where: { boardId: board.id, kind: "creative" }, select: { creativeId: true } });
  const visible = await db.creative.findMany({
    where: { workspaceId: principal.workspaceId, id: { in: cards.flatMap((c) => (c.creativeId ? [c.creativeId] : [])) }, ...(await folderScope(principal)) },
    select: { id: true },
  });
  if (!visible.length) throw conflict("The board has no creative cards to share; add some first");
  if (visible.length > LINK_CREATIVES_MAX)
    throw new AppError("limit_exceeded", `A review link shares at most ${LINK_CREATIVES_MAX} creatives; this board has ${visible.length}`);
  // The link and the board's share in one transaction: a failure between them would leave an active link
  // sharing the board's creatives without the board (its board page 404), one nobody knew was made.
  const { link, token, url } = await createReviewLink(
    principal,
    {
      name: input.name ?? `Board: ${board.name}`,
      creativeIds: visible.map((v) => v.id),
      password: input.password,
      expiresAt: input.expiresAt,
      permissions: input.permissions,
    },
    async (tx, linkId) => {
      // The board still there as the share is written (a deletion waits for this commit, or came first: 404).
      if (!(await tx.$queryRaw<{ id: string }[]>`SELECT id FROM boards WHERE id = ${board.id} FOR SHARE`).length) throw notFound("Board");
      await tx.boardShare.create({ data: { linkId, boardId: board.id, workspaceId: principal.workspaceId } });
    },
  );
  return { link, token, url, boardUrl: boardShareUrl(url) };
}

export interface GuestBoard {
  name: string;
  linkName: string;
  permissions: { comment: boolean; decide: boolean; download: boolean };
  items: BoardItem[];
  creatives: GuestCreative[];
}

/**
 * What a review-link guest sees of a shared board: its items (cards only for the creatives the link
 * shares; others show as unavailable) and the shared creatives with their threads and signed media.
 */
export async function guestBoard(token: string, link: ReviewLink): Promise<GuestBoard> {
  const db = getDb();
  const share = await db.boardShare.findUnique({ where: { linkId: link.id } });
  const board = share ? await db.board.findFirst({ where: { id: share.boardId, workspaceId: link.workspaceId }, select: { id: true, name: true } }) : null;
  if (!board) throw notFound("Board");
  const rows = stackOrder(await db.boardItem.findMany({ where: { boardId: board.id, workspaceId: link.workspaceId } }));
  const cards = await loadCards(
    link.workspaceId,
    rows.flatMap((r) => (r.creativeId ? [r.creativeId] : [])),
    { status: "ready", reviewLinks: { some: { linkId: link.id } } },
  );
  // A board's link shares at most LINK_CREATIVES_MAX creatives: one page holds them all.
  const view = await guestView(token, link, { limit: LINK_CREATIVES_MAX });
  // A card's open threads as this guest sees them (the team's internal threads stay unseen, and uncounted).
  for (const creative of view.creatives) {
    const card = cards.get(creative.id);
    if (card) card.openThreads = creative.threads.filter((thread) => !thread.resolved).length;
  }
  return {
    name: board.name,
    linkName: view.linkName,
    permissions: view.permissions,
    items: rows.map((r) => toItem(r, cards)),
    creatives: view.creatives,
  };
}
