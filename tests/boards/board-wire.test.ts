import { describe, expect, it } from "vitest";
import { type BoardPage, canvasPage, fromWire, toWire } from "@/lib/dashboard/board-wire";
import { createTenant } from "../helpers/fixtures";
import { readyCreative, toolResult } from "../tools/helpers";
import { boardWithCard } from "./board-tool-calls";

describe("the canvas page's compact board", () => {
  it("gives back exactly what the canvas reads of get_board: cards with their picture paths, notes, frames, connectors, a deleted creative's card", async () => {
    const t = await createTenant();
    const { boardId, item: card } = await boardWithCard(t.key, "UGC_hook_v1.png");
    const gone = await readyCreative(t.key, "gone.png");
    const { item: goneCard } = await toolResult(t.key, "add_board_item", { boardId, kind: "creative", creativeId: gone.creativeId });
    await toolResult(t.key, "delete_creatives", { ids: [gone.creativeId] });
    const { item: note } = await toolResult(t.key, "add_board_item", { boardId, kind: "note", text: 'Hook "A" wins', color: "pink", x: -40, y: 7 });
    await toolResult(t.key, "add_board_item", { boardId, kind: "frame", text: "Section" });
    await toolResult(t.key, "add_board_item", { boardId, kind: "connector", fromItemId: card.id, toItemId: note.id, text: "then" });

    const page = (await toolResult(t.key, "get_board", { id: boardId })) as BoardPage;
    const read = canvasPage(page);
    // Frames go to the bottom of the stack.
    expect(read.items.map((i) => i.kind)).toEqual(["frame", "creative", "creative", "note", "connector"]);
    expect(read.items.find((i) => i.id === card.id)!.card!.thumbnails).toMatchObject({
      small: expect.stringContaining("/320/"),
      large: expect.stringContaining("/960/"),
    });
    expect(read.items.find((i) => i.id === goneCard.id)).toMatchObject({ creativeId: gone.creativeId, card: null });

    const wire = toWire(read);
    expect(fromWire(wire)).toEqual(read);
    // The pictures' paths travel as one rendition tag, and a card's empty fields not at all.
    expect(wire).not.toContain("/api/media/");
    expect(wire.length).toBeLessThan(JSON.stringify(read).length * 0.75);
  });
});
