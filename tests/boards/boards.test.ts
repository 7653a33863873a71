import { describe, expect, it } from "vitest";
import { createMemberKey, createTenant } from "../helpers/fixtures";
import { guest } from "../review/helpers";
import { callTool, readyCreative, toolResult } from "../tools/helpers";
import { boardWithCard } from "./board-tool-calls";

describe("boards over HTTP", () => {
  it("two writers move one card at the same version: one wins, the other gets 409 conflict and the winner's position stays", async () => {
    const t = await createTenant();
    const second = await createMemberKey(t, { role: "editor", scopes: ["edit"] });
    const { boardId, item } = await boardWithCard(t.key);
    const [a, b] = await Promise.all([
      callTool(t.key, "move_board_item", { id: item.id, version: item.version, x: 100, y: 100 }),
      callTool(second.key, "move_board_item", { id: item.id, version: item.version, x: 900, y: 900 }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    const winner = a.status === 200 ? a : b;
    expect(loser.body.error.code).toBe("conflict");
    expect(loser.body.error.message).toMatch(/version 2, not 1/);
    const { items } = await toolResult(t.key, "get_board", { id: boardId });
    expect(items[0]).toMatchObject({ x: winner.body.result.item.x, y: winner.body.result.item.y, version: 2 });

    // The loser reloads and moves again from the version it now reads.
    const retry = await callTool(loser === a ? t.key : second.key, "move_board_item", { id: item.id, version: 2, x: 5, y: 6 });
    expect(retry.status).toBe(200);
    expect(retry.body.result.item).toMatchObject({ x: 5, y: 6, version: 3 });
  });

  it("a resize and a move racing on one version also leave exactly one write", async () => {
    const t = await createTenant();
    const { boardId, item } = await boardWithCard(t.key);
    const results = await Promise.all([
      callTool(t.key, "resize_board_item", { id: item.id, version: 1, width: 300, height: 300 }),
      callTool(t.key, "move_board_item", { id: item.id, version: 1, x: 1, y: 1 }),
      callTool(t.key, "remove_board_item", { id: item.id, version: 1 }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // Whichever commits first wins. After a move or resize the others name a stale version (409); after the
    // removal there is no item left to be stale (404), which the server's scheduling can make happen.
    const removed = results[2]!.status === 200;
    const losers = results.filter((r) => r.status !== 200).map((r) => [r.status, r.body.error.code]);
    const loserAnswer = removed ? [404, "not_found"] : [409, "conflict"];
    expect(losers).toEqual([loserAnswer, loserAnswer]);
    const { items } = await toolResult(t.key, "get_board", { id: boardId });
    expect(removed ? items : items.map((i: any) => i.version)).toEqual(removed ? [] : [2]);
  });

  it("keeps workspaces apart: another workspace's board, item and creative are not found", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const { boardId, item } = await boardWithCard(t.key);
    const mine = (await toolResult(other.key, "create_board", { name: "Mine" })).board;
    const { creativeId } = await readyCreative(other.key);
    for (const [name, args] of [
      ["move_board_item", { id: item.id, version: 1, x: 0, y: 0 }],
      ["remove_board_item", { id: item.id }],
      ["annotate_board_card", { itemId: item.id, body: "x" }],
      ["arrange_board", { boardId, groupBy: "label" }],
      ["rename_board", { id: boardId, name: "taken" }],
      ["share_board", { boardId }],
    ] as const) {
      const res = await callTool(other.key, name, args);
      expect([name, res.status, res.body.error.code]).toEqual([name, 404, "not_found"]);
    }
    // A card for another workspace's creative cannot be placed.
    expect((await callTool(t.key, "add_board_item", { boardId, kind: "creative", creativeId })).status).toBe(404);
    // A connector cannot reach into another board.
    const note = (await toolResult(other.key, "add_board_item", { boardId: mine.id, kind: "note" })).item;
    expect((await callTool(t.key, "add_board_item", { boardId, kind: "connector", fromItemId: item.id, toItemId: note.id })).status).toBe(404);
  });

  it("reads need what viewing creatives needs; changes need the edit scope", async () => {
    const t = await createTenant();
    const { boardId, item } = await boardWithCard(t.key);
    const viewer = await createMemberKey(t, { role: "viewer" });
    expect((await callTool(viewer.key, "get_board", { id: boardId })).status).toBe(200);
    expect((await callTool(viewer.key, "move_board_item", { id: item.id, version: 1, x: 0, y: 0 })).status).toBe(403);
    const uploader = await createMemberKey(t, { role: "editor", scopes: ["upload"] });
    expect((await callTool(uploader.key, "list_boards", {})).status).toBe(200);
    expect((await callTool(uploader.key, "create_board", { name: "no" })).status).toBe(403);
    expect((await callTool(uploader.key, "annotate_board_card", { itemId: item.id, body: "no" })).status).toBe(403);
    const editor = await createMemberKey(t, { role: "editor", scopes: ["edit"] });
    expect((await callTool(editor.key, "annotate_board_card", { itemId: item.id, body: "yes" })).status).toBe(200);
    expect((await callTool(editor.key, "share_board", { boardId })).status).toBe(403);
  });

  it("refuses bad input with invalid_input, never a 5xx", async () => {
    const t = await createTenant();
    const { boardId, item } = await boardWithCard(t.key);
    for (const [name, args] of [
      ["move_board_item", { id: item.id, version: 1, x: 1e12, y: 0 }],
      ["move_board_item", { id: item.id, version: 1, x: "a", y: 0 }],
      ["move_board_item", { id: item.id, version: 1, x: 0, y: 0, layer: "front", above: item.id }],
      ["add_board_item", { boardId, kind: "note", creativeId: "x" }],
      ["add_board_item", { boardId, kind: "connector", fromItemId: item.id, toItemId: item.id }],
      ["add_board_item", { boardId, kind: "sticker" }],
      ["edit_board_item", { id: item.id, version: 1, text: "cards have no text" }],
      ["arrange_board", { boardId, groupBy: "colour" }],
      ["annotate_board_card", { itemId: item.id, body: "", pin: { x: 2, y: 0 } }],
    ] as const) {
      const res = await callTool(t.key, name, args);
      expect([name, res.status, res.body.error.code]).toEqual([name, 400, "invalid_input"]);
    }
  });

  it("stacks items by fractional index: bring to front, send to back, place above", async () => {
    const t = await createTenant();
    const { board } = await toolResult(t.key, "create_board", { name: "Stack" });
    const add = async (text: string) => (await toolResult(t.key, "add_board_item", { boardId: board.id, kind: "note", text })).item;
    const [a, b, c] = [await add("a"), await add("b"), await add("c")];
    const order = async () => (await toolResult(t.key, "get_board", { id: board.id })).items.map((i: any) => i.text);
    expect(await order()).toEqual(["a", "b", "c"]);
    await toolResult(t.key, "move_board_item", { id: a.id, version: 1, x: 0, y: 0, layer: "front" });
    expect(await order()).toEqual(["b", "c", "a"]);
    await toolResult(t.key, "move_board_item", { id: c.id, version: 1, x: 0, y: 0, layer: "back" });
    expect(await order()).toEqual(["c", "b", "a"]);
    await toolResult(t.key, "move_board_item", { id: c.id, version: 2, x: 0, y: 0, above: b.id });
    expect(await order()).toEqual(["b", "c", "a"]);
  });

  it("a shared board is read-only for guests, who comment on its cards", async () => {
    const t = await createTenant();
    const { boardId, creativeId } = await boardWithCard(t.key);
    const { token } = await toolResult(t.key, "share_board", { boardId });
    const comment = await guest(`/api/review/${token}/comments`, {
      method: "POST",
      json: { creativeId, name: "Gina", body: "Nice card", pin: { x: 0.5, y: 0.5 } },
    });
    expect(comment.status).toBe(201);
    const { threads } = await toolResult(t.key, "list_comments", { creativeId });
    expect(threads).toEqual([expect.objectContaining({ body: "Nice card", guest: true })]);
    // A thread of the team's own is not shown to guests (the link does not share internal comments), nor counted.
    expect((await toolResult(t.key, "add_comment", { creativeId, body: "Internal: check the logo" })).comment).toBeDefined();
    const view = await guest(`/api/review/${token}/board`);
    expect(view.body.items[0].card).toMatchObject({ id: creativeId, openThreads: 1 });
    // A plain review link shares no board.
    const { token: plain } = await toolResult(t.key, "create_review_link", { name: "Plain", creativeIds: [creativeId] });
    expect((await guest(`/api/review/${plain}/board`)).status).toBe(404);
    // A card added after sharing is shown, but the link does not share its creative.
    const later = await readyCreative(t.key);
    await toolResult(t.key, "add_board_item", { boardId, kind: "creative", creativeId: later.creativeId });
    const again = await guest(`/api/review/${token}/board`);
    expect(again.body.items[1]).toMatchObject({ creativeId: later.creativeId, card: null });
    expect((await guest(`/api/review/${token}/comments`, { method: "POST", json: { creativeId: later.creativeId, name: "Gina", body: "?" } })).status).toBe(
      404,
    );
  });
});
