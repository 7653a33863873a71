import { expect } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { guest } from "../review/helpers";
import { callTool, readyCreative, toolResult } from "../tools/helpers";

/** A board with one creative card on it. */
export async function boardWithCard(key: string, fileName?: string): Promise<{ boardId: string; item: any; creativeId: string }> {
  const { creativeId } = await readyCreative(key, fileName);
  const { board } = await toolResult(key, "create_board", { name: "Plan" });
  const { item } = await toolResult(key, "add_board_item", { boardId: board.id, kind: "creative", creativeId, x: 10, y: 20 });
  return { boardId: board.id, item, creativeId };
}

/** The boards tools' scenarios (spread into TOOL_CALLS), each checking its effect through another tool or route. */
export const BOARD_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async list_boards(t) {
    const a = (await toolResult(t.key, "create_board", { name: "A" })).board;
    const b = (await toolResult(t.key, "create_board", { name: "B" })).board;
    const page = await toolResult(t.key, "list_boards", { limit: 1 });
    expect(page.boards.map((x: any) => x.id)).toEqual([b.id]);
    expect((await toolResult(t.key, "list_boards", { cursor: page.nextCursor })).boards.map((x: any) => x.id)).toEqual([a.id]);
    const other = await createTenant();
    expect((await toolResult(other.key, "list_boards", {})).boards).toEqual([]);
  },

  async get_board(t) {
    const { boardId, item, creativeId } = await boardWithCard(t.key);
    const { board, items } = await toolResult(t.key, "get_board", { id: boardId });
    expect(board).toMatchObject({ id: boardId, name: "Plan", itemCount: 1 });
    expect(items).toEqual([
      { ...item, card: expect.objectContaining({ id: creativeId, reviewStatus: "none", label: "neutral", spend: 0, mediaPath: `/api/media/${creativeId}` }) },
    ]);
    const other = await createTenant();
    expect((await callTool(other.key, "get_board", { id: boardId })).body.error.code).toBe("not_found");
  },

  async get_board_revision(t) {
    const { board } = await toolResult(t.key, "create_board", { name: "Rev" });
    const before = (await toolResult(t.key, "get_board_revision", { id: board.id })).revision;
    await toolResult(t.key, "add_board_item", { boardId: board.id, kind: "note", text: "hi" });
    expect((await toolResult(t.key, "get_board_revision", { id: board.id })).revision).toBe(before + 1);
  },

  async create_board(t) {
    const { board } = await toolResult(t.key, "create_board", { name: "  Q3 hooks  " });
    expect(board).toMatchObject({ name: "Q3 hooks", itemCount: 0, revision: 0 });
    expect((await callTool(t.key, "create_board", { name: "" })).body.error.code).toBe("invalid_input");
  },

  async rename_board(t) {
    const { board } = await toolResult(t.key, "create_board", { name: "Old" });
    await toolResult(t.key, "rename_board", { id: board.id, name: "New" });
    expect((await toolResult(t.key, "get_board", { id: board.id })).board.name).toBe("New");
  },

  async delete_board(t) {
    const { boardId } = await boardWithCard(t.key);
    const { token } = await toolResult(t.key, "share_board", { boardId });
    expect(await toolResult(t.key, "delete_board", { id: boardId })).toEqual({ ok: true });
    expect((await callTool(t.key, "get_board", { id: boardId })).status).toBe(404);
    expect((await guest(`/api/review/${token}/board`)).status).toBe(404);
  },

  async add_board_item(t) {
    const { boardId, item } = await boardWithCard(t.key);
    const note = (await toolResult(t.key, "add_board_item", { boardId, kind: "note", text: "Try a hook", x: 300, y: 0 })).item;
    expect(note).toMatchObject({ kind: "note", text: "Try a hook", color: "yellow", width: 200, height: 140, version: 1, card: null });
    const link = (await toolResult(t.key, "add_board_item", { boardId, kind: "connector", fromItemId: item.id, toItemId: note.id })).item;
    expect(link).toMatchObject({ kind: "connector", fromItemId: item.id, toItemId: note.id });
    const { items } = await toolResult(t.key, "get_board", { id: boardId });
    expect(items.map((i: any) => i.id)).toEqual([item.id, note.id, link.id]);
    expect((await callTool(t.key, "add_board_item", { boardId, kind: "creative" })).body.error.code).toBe("invalid_input");
    expect((await callTool(t.key, "add_board_item", { boardId, kind: "creative", creativeId: "crt_nope" })).body.error.code).toBe("not_found");
  },

  async move_board_item(t) {
    const { boardId, item } = await boardWithCard(t.key);
    const moved = (await toolResult(t.key, "move_board_item", { id: item.id, version: 1, x: 500, y: -40 })).item;
    expect(moved).toMatchObject({ x: 500, y: -40, version: 2 });
    const stale = await callTool(t.key, "move_board_item", { id: item.id, version: 1, x: 0, y: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("conflict");
    expect((await toolResult(t.key, "get_board", { id: boardId })).items[0]).toMatchObject({ x: 500, y: -40, version: 2 });
  },

  async resize_board_item(t) {
    const { boardId, item } = await boardWithCard(t.key);
    await toolResult(t.key, "resize_board_item", { id: item.id, version: 1, width: 400, height: 380 });
    expect((await toolResult(t.key, "get_board", { id: boardId })).items[0]).toMatchObject({ width: 400, height: 380, version: 2 });
    expect((await callTool(t.key, "resize_board_item", { id: item.id, version: 2, width: 0, height: 10 })).body.error.code).toBe("invalid_input");
  },

  async edit_board_item(t) {
    const { board } = await toolResult(t.key, "create_board", { name: "E" });
    const { item } = await toolResult(t.key, "add_board_item", { boardId: board.id, kind: "note", text: "a" });
    await toolResult(t.key, "edit_board_item", { id: item.id, version: 1, text: "b", color: "blue" });
    expect((await toolResult(t.key, "get_board", { id: board.id })).items[0]).toMatchObject({ text: "b", color: "blue", version: 2 });
  },

  async remove_board_item(t) {
    const { boardId, item } = await boardWithCard(t.key);
    const note = (await toolResult(t.key, "add_board_item", { boardId, kind: "note" })).item;
    const link = (await toolResult(t.key, "add_board_item", { boardId, kind: "connector", fromItemId: item.id, toItemId: note.id })).item;
    expect((await callTool(t.key, "remove_board_item", { id: note.id, version: 7 })).status).toBe(409);
    const { removed } = await toolResult(t.key, "remove_board_item", { id: note.id, version: 1 });
    expect(removed).toEqual([note.id, link.id]);
    expect((await toolResult(t.key, "get_board", { id: boardId })).items.map((i: any) => i.id)).toEqual([item.id]);
  },

  async arrange_board(t) {
    const { boardId, creativeId } = await boardWithCard(t.key, `UGC_hook_${Date.now()}.png`);
    const other = await readyCreative(t.key, `STATIC_offer_${Date.now()}.png`);
    await toolResult(t.key, "add_board_item", { boardId, kind: "creative", creativeId: other.creativeId, x: 999, y: 999 });
    await toolResult(t.key, "set_review_status", { creativeId, status: "approved" });
    const { items } = await toolResult(t.key, "arrange_board", { boardId, groupBy: "naming_token" });
    const frames = items.filter((i: any) => i.kind === "frame");
    expect(frames.map((f: any) => f.text).sort()).toEqual(["STATIC", "UGC"]);
    expect(items[0].kind).toBe("frame");
    const byStatus = await toolResult(t.key, "arrange_board", { boardId, groupBy: "review_status", sortBy: "cpa" });
    expect(byStatus.items.filter((i: any) => i.kind === "frame").map((f: any) => f.text)).toEqual(["none", "approved"]);
    const cards = byStatus.items.filter((i: any) => i.kind === "creative");
    expect(cards.every((c: any) => c.version === 3)).toBe(true);
  },

  async annotate_board_card(t) {
    const { item, creativeId } = await boardWithCard(t.key);
    const { threadId } = await toolResult(t.key, "annotate_board_card", { itemId: item.id, body: "Logo too small", pin: { x: 0.2, y: 0.8 } });
    const { threads } = await toolResult(t.key, "list_comments", { creativeId });
    expect(threads).toEqual([expect.objectContaining({ id: threadId, body: "Logo too small", pin: { x: 0.2, y: 0.8 } })]);
    expect((await callTool(t.key, "annotate_board_card", { itemId: item.id, body: "at 1s", timeSeconds: 1 })).body.error.code).toBe("invalid_input");
  },

  async share_board(t) {
    const { boardId, creativeId } = await boardWithCard(t.key);
    const shared = await toolResult(t.key, "share_board", { boardId });
    expect(shared.link).toMatchObject({ name: "Board: Plan", creativeIds: [creativeId], state: "active" });
    expect(shared.boardUrl).toBe(`${shared.url}/board`);
    const view = await guest(`/api/review/${shared.token}/board`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      name: "Plan",
      items: [expect.objectContaining({ creativeId })],
      creatives: [expect.objectContaining({ id: creativeId })],
    });
  },
};
