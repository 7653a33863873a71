import type { ToolOutput } from "@/components/dashboard/tool-call";
import type { Principal } from "@/lib/auth/principal";
import { can } from "./access";
import { type BoardPage, canvasPage, type CanvasPage } from "./board-wire";
import { callTool } from "@/lib/tools/call";

export type BoardSummary = ToolOutput<"list_boards">["boards"][number];
export type { BoardPage, CanvasCard, CanvasItem, CanvasPage } from "./board-wire";

/** Boards the list shows at first and adds with each "Show more boards". */
export const BOARDS_PAGE = 100;

/** What the Boards pages show, read through the catalog's tools (the same checks as every other surface). */
export async function boardsPageData(
  principal: Principal,
): Promise<{ boards: BoardSummary[]; nextCursor: string | null; canWrite: boolean; canShare: boolean }> {
  const outcome = await callTool(principal, "list_boards", { limit: BOARDS_PAGE });
  if (!outcome.ok) throw new Error(outcome.body.error.message);
  const { boards, nextCursor } = outcome.body.result as unknown as ToolOutput<"list_boards">;
  return {
    boards,
    nextCursor,
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
