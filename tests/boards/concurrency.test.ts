// Writes to one board at the same moment (the postgres project runs this on PostgreSQL, where two transactions
// read at once): each write takes the board's row first, so stack places stay distinct and a connector never
// outlives an item it joins.
import { describe, expect, it } from "vitest";
import { admin, createTenant } from "../helpers/fixtures";
import { callTool, toolResult } from "../tools/helpers";

const ROUNDS = 8;

async function note(key: string, boardId: string, text: string) {
  return (await toolResult(key, "add_board_item", { boardId, kind: "note", text })).item;
}

describe("one board, writes at once", () => {
  it("items brought to the front together get distinct places in the stack", async () => {
    const t = await createTenant();
    const { board } = await toolResult(t.key, "create_board", { name: "Stack race" });
    const notes = [];
    for (let i = 0; i < 4; i++) notes.push(await note(t.key, board.id, `note ${i}`));
    for (let round = 0; round < ROUNDS; round++) {
      const { items } = await toolResult(t.key, "get_board", { id: board.id });
      // Every item to the front at once, each at the version it is at.
      await Promise.all(items.map((i: any) => toolResult(t.key, "move_board_item", { id: i.id, version: i.version, x: i.x, y: i.y, layer: "front" })));
    }
    const { items } = await toolResult(t.key, "get_board", { id: board.id });
    expect(new Set(items.map((i: any) => i.orderKey)).size).toBe(items.length);
    // Every item can still be placed above every other one.
    const [bottom, top] = [items[0], items.at(-1)];
    expect((await toolResult(t.key, "move_board_item", { id: bottom.id, version: bottom.version, x: 0, y: 0, above: top.id })).item.id).toBe(bottom.id);
  });

  it("a connector added while one of its items is removed is either refused or removed with it", async () => {
    const t = await createTenant();
    const { board } = await toolResult(t.key, "create_board", { name: "Connector race" });
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = [await note(t.key, board.id, `a${round}`), await note(t.key, board.id, `b${round}`)];
      await Promise.all([
        toolResult(t.key, "add_board_item", { boardId: board.id, kind: "connector", fromItemId: a.id, toItemId: b.id }).catch(() => null),
        toolResult(t.key, "remove_board_item", { id: a.id }),
      ]);
    }
    const { items } = await toolResult(t.key, "get_board", { id: board.id });
    const ids = new Set(items.map((i: any) => i.id));
    const dangling = items.filter((i: any) => i.kind === "connector" && !(ids.has(i.fromItemId) && ids.has(i.toItemId)));
    expect(dangling).toEqual([]);
  });
});

describe("a board shared while it is deleted", () => {
  it("leaves no active review link behind: the share comes first and is revoked with the board, or finds no board", async () => {
    const t = await createTenant();
    await admin(["library", "seed", "--workspace", t.workspaceId, "--count", "1"]);
    const [creative] = (await toolResult(t.key, "list_creatives", {})).creatives;
    for (let round = 0; round < ROUNDS; round++) {
      const { board } = await toolResult(t.key, "create_board", { name: `Share race ${round}` });
      await toolResult(t.key, "add_board_item", { boardId: board.id, kind: "creative", creativeId: creative.id });
      const [share] = await Promise.all([callTool(t.key, "share_board", { boardId: board.id }), toolResult(t.key, "delete_board", { id: board.id })]);
      expect([200, 404, 409]).toContain(share.status); // 409: its cards went first, with the board
    }
    const { links } = await toolResult(t.key, "list_review_links", { limit: 100 });
    expect(links.filter((l: any) => l.state === "active")).toEqual([]);
  });
});
