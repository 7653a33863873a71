import type { ToolOutput } from "@/components/dashboard/tool-call";

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

/**
 * The board as it travels from the canvas page to the browser: one JSON string of compact items.
 *
 * A string, because React's server-to-browser serialization visits every value of an object prop with a
 * replacer on the server and a reviver in the browser (~15,000 calls for 500 cards, on both sides), where
 * one JSON.stringify and one JSON.parse of a string do the same natively. Compact, because a card's picture
 * paths and its item's empty fields are most of its bytes and the browser can rebuild them: `mediaPath` is
 * `/api/media/<id>`, both thumbnails differ only by width and share one rendition tag, `creativeId` is the
 * card's id, and a card has no text, colour or connector ends (absent fields are null).
 * `tests/boards/board-wire.test.ts` checks that the round trip gives back exactly what the canvas read before.
 */
export interface WireCard extends Omit<CanvasCard, "mediaPath" | "thumbnails"> {
  /** The thumbnails' rendition tag (the last segment of their paths); absent when the card has none. */
  thumb?: string;
}
export type WireItem = Partial<Omit<CanvasItem, "card">> &
  Pick<CanvasItem, "id" | "kind" | "x" | "y" | "width" | "height" | "orderKey" | "version"> & { card?: WireCard | null };
export interface WirePage {
  board: CanvasPage["board"];
  items: WireItem[];
}

const SMALL = 320;
const LARGE = 960;
const thumbnailPath = (creativeId: string, width: number, tag: string) => `/api/media/${creativeId}/thumbnails/${width}/${tag}`;
const OPTIONAL = ["text", "color", "fromItemId", "toItemId"] as const;

export function toWire(page: CanvasPage): string {
  const items = page.items.map((item): WireItem => {
    const { card, creativeId, ...rest } = item;
    const wire: WireItem = { ...rest };
    for (const key of OPTIONAL) if (wire[key] === null) delete wire[key];
    if (card) {
      const { mediaPath: _media, thumbnails, ...shown } = card;
      wire.card = thumbnails ? { ...shown, thumb: thumbnails.small.slice(thumbnails.small.lastIndexOf("/") + 1) } : shown;
    } else if (creativeId !== null) {
      // A card the caller may not see: its creative id stays, its card is null.
      wire.creativeId = creativeId;
      wire.card = null;
    }
    return wire;
  });
  return JSON.stringify({ board: page.board, items } satisfies WirePage);
}

export function fromWire(json: string): CanvasPage {
  const page = JSON.parse(json) as WirePage;
  return {
    board: page.board,
    items: page.items.map((wire): CanvasItem => {
      const { card, ...rest } = wire;
      const item = { text: null, color: null, fromItemId: null, toItemId: null, creativeId: null, ...rest, card: null } as CanvasItem;
      if (!card) return item;
      const { thumb, ...shown } = card;
      item.creativeId = card.id;
      item.card = {
        ...shown,
        mediaPath: card.status === "ready" ? `/api/media/${card.id}` : null,
        thumbnails: thumb ? { small: thumbnailPath(card.id, SMALL, thumb), large: thumbnailPath(card.id, LARGE, thumb) } : null,
      };
      return item;
    }),
  };
}
