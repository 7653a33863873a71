import type { ToolOutput } from "@/components/dashboard/tool-call";
import type { Principal } from "@/lib/auth/principal";
import { can } from "./access";
import { callTool } from "@/lib/tools/call";

export type BoardSummary = ToolOutput<"list_boards">["boards"][number];
export type BoardPage = ToolOutput<"get_board">;
type FullItem = BoardPage["items"][number];

/** What the canvas reads of a card: no picture size or CTR (the card shows neither). */
export type CanvasCard = Omit<NonNullable<FullItem["card"]>, "width" | "height" | "ctr">;
/** What the canvas reads of an item: no board id or change time. */
export type CanvasItem = Omit<FullItem, "boardId" | "updatedAt" | "card"> & { card: CanvasCard | null };
export interface CanvasPage {
  board: BoardPage["board"];
  items: CanvasItem[];
}

/**
 * The board as the canvas page sends it to the browser: only the fields the canvas reads, so a board of
 * hundreds of cards serializes (server), travels and hydrates (browser) a smaller payload.
 */
export function canvasPage(page: BoardPage): CanvasPage {
  return {
    board: page.board,
    items: page.items.map(({ boardId: _board, updatedAt: _updated, card, ...item }) => {
      if (!card) return { ...item, card: null };
      const { width: _w, height: _h, ctr: _ctr, ...shown } = card;
      return { ...item, card: shown };
    }),
  };
}

/** What the Boards pages show, read through the catalog's tools (the same checks as every other surface). */
export async function boardsPageData(principal: Principal): Promise<{ boards: BoardSummary[]; canWrite: boolean; canShare: boolean }> {
  const outcome = await callTool(principal, "list_boards", { limit: 200 });
  if (!outcome.ok) throw new Error(outcome.body.error.message);
  return {
    boards: (outcome.body.result as unknown as ToolOutput<"list_boards">).boards,
    canWrite: can(principal, "boards.write"),
    canShare: can(principal, "review.share"),
  };
}

/** One board for its canvas page; null when it is not the workspace's (the page answers not found). */
export async function boardPageData(
  principal: Principal,
  id: string,
): Promise<{ page: CanvasPage; canWrite: boolean; canAnnotate: boolean; canShare: boolean } | null> {
  const outcome = await callTool(principal, "get_board", { id });
  if (!outcome.ok) {
    if (outcome.status === 404 || outcome.status === 400) return null;
    throw new Error(outcome.body.error.message);
  }
  return {
    page: canvasPage(outcome.body.result as unknown as BoardPage),
    canWrite: can(principal, "boards.write"),
    canAnnotate: can(principal, "boards.annotate"),
    canShare: can(principal, "review.share"),
  };
}
