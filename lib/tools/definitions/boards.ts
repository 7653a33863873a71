import { z } from "zod";
import { isoDateTime } from "@/lib/iso-time";
import { annotateBoardCard } from "@/lib/boards/annotate";
import { arrangeBoard } from "@/lib/boards/arrange";
import {
  addBoardItem,
  createBoard,
  deleteBoard,
  editBoardItem,
  getBoard,
  getBoardRevision,
  listBoards,
  moveBoardItem,
  removeBoardItem,
  renameBoard,
  resizeBoardItem,
} from "@/lib/boards/boards";
import {
  ARRANGE_GROUPS,
  ARRANGE_SORTS,
  BOARD_ITEM_KINDS,
  BOARD_LIMITS,
  BoardItemSchema,
  BoardSchema,
  BoardWithItemsSchema,
  NOTE_COLORS,
} from "@/lib/boards/schemas";
import { shareBoard } from "@/lib/boards/share";
import { LINK_PASSWORD_MIN } from "@/lib/review/links";
import { CommentBodySchema, LinkPermissionsSchema, PinSchema, ReplySchema, ReviewLinkSchema, TimeSecondsSchema } from "@/lib/review/schemas";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const boardId = idArg("Board");
const itemId = idArg("Board item");
const name = z.string().trim().min(1).max(BOARD_LIMITS.name).describe("Board name");
const coordinate = (what: string) =>
  z.number().min(-BOARD_LIMITS.coordinate).max(BOARD_LIMITS.coordinate).describe(`${what} on the canvas (canvas units; y grows downwards)`);
const size = (what: string) => z.number().min(1).max(BOARD_LIMITS.size).describe(what);
const version = z
  .number()
  .int()
  .min(1)
  .describe("The item's version as you last read it: if someone changed it since, the call answers 409 conflict and changes nothing");
const text = z.string().max(BOARD_LIMITS.text).describe("A note's text, a frame's title or a connector's label");
const color = z.enum(NOTE_COLORS).describe("Note colour");
const ItemResult = z.object({ item: BoardItemSchema, revision: z.number().int().describe("The board's revision after the change") });

export const boardTools = [
  defineTool({
    name: "list_boards",
    title: "List boards",
    description: "The workspace's boards, newest first, with their item counts and revisions. Paginated: pass nextCursor back as cursor.",
    category: "boards",
    capability: "boards.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ ...pageArgs({ defaultLimit: 50, maxLimit: 200 }) }),
    output: z.object({ boards: z.array(BoardSchema), nextCursor: z.string().nullable() }),
    handler: listBoards,
  }),
  defineTool({
    name: "get_board",
    title: "Get board",
    description:
      "A board with every item, bottom of the stack first: creative cards (with the creative's thumbnail path, review status, open threads, label and last-30-days spend, CPA and ROAS), notes, frames and connectors, each with its position, size and version.",
    category: "boards",
    capability: "boards.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: boardId }),
    output: BoardWithItemsSchema,
    handler: getBoard,
  }),
  defineTool({
    name: "get_board_revision",
    title: "Get board revision",
    description: "Only the board's revision, which rises with every change: poll it (cheap) and reload the board with get_board when it moved.",
    category: "boards",
    capability: "boards.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: boardId }),
    output: z.object({ id: z.string(), revision: z.number().int() }),
    handler: getBoardRevision,
  }),
  defineTool({
    name: "create_board",
    title: "Create board",
    description: "Creates an empty board.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ name }),
    output: z.object({ board: BoardSchema }),
    handler: createBoard,
  }),
  defineTool({
    name: "rename_board",
    title: "Rename board",
    description: "Renames a board.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: boardId, name }),
    output: z.object({ board: BoardSchema }),
    handler: renameBoard,
  }),
  defineTool({
    name: "delete_board",
    title: "Delete board",
    description:
      "Deletes a board with its notes, frames and connectors (the creatives and their comments stay); review links that shared it are revoked. Cannot be undone.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ id: boardId }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteBoard,
  }),
  defineTool({
    name: "add_board_item",
    title: "Add board item",
    description:
      "Adds an item on top of the board's stack (frames go to the bottom): a creative card (creativeId), a note (text, color), a frame (text is its title) or a connector joining two items (fromItemId, toItemId; removed with either end). Width and height default by kind.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      boardId,
      kind: z.enum(BOARD_ITEM_KINDS).describe("creative, note, frame or connector"),
      x: coordinate("Left edge").optional(),
      y: coordinate("Top edge").optional(),
      width: size("Width").optional(),
      height: size("Height").optional(),
      creativeId: idArg("Creative").optional().describe("Creative cards: the library creative"),
      text: text.optional(),
      color: color.optional(),
      fromItemId: itemId.optional().describe("Connectors: the item it starts at"),
      toItemId: itemId.optional().describe("Connectors: the item it ends at"),
    }),
    output: ItemResult,
    handler: addBoardItem,
  }),
  defineTool({
    name: "move_board_item",
    title: "Move board item",
    description:
      "Moves an item to x, y; optionally restacks it (layer front or back, or just above another item). Pass the version you read: a stale one answers 409 conflict and the item stays where the other writer put it.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      id: itemId,
      version,
      x: coordinate("Left edge"),
      y: coordinate("Top edge"),
      layer: z.enum(["front", "back"]).optional().describe("Bring to the front or send to the back"),
      above: itemId.optional().describe("Place directly above this item in the stack"),
    }),
    output: ItemResult,
    handler: moveBoardItem,
  }),
  defineTool({
    name: "resize_board_item",
    title: "Resize board item",
    description: "Changes an item's width and height (and x, y when resizing from the left or top edge). A stale version answers 409 conflict.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      id: itemId,
      version,
      width: size("New width"),
      height: size("New height"),
      x: coordinate("Left edge").optional(),
      y: coordinate("Top edge").optional(),
    }),
    output: ItemResult,
    handler: resizeBoardItem,
  }),
  defineTool({
    name: "edit_board_item",
    title: "Edit board item",
    description: "Changes a note's text or colour, a frame's title or a connector's label. A stale version answers 409 conflict.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: itemId, version, text: text.optional(), color: color.optional() }),
    output: ItemResult,
    handler: editBoardItem,
  }),
  defineTool({
    name: "remove_board_item",
    title: "Remove board item",
    description:
      "Removes an item from its board with the connectors attached to it (a card's creative stays in the library). With version, a stale copy answers 409 conflict instead.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: itemId, version: version.optional() }),
    output: z.object({ removed: z.array(z.string()).describe("The item and its connectors"), revision: z.number().int() }),
    handler: removeBoardItem,
  }),
  defineTool({
    name: "arrange_board",
    title: "Arrange board",
    description:
      "Arranges the board's creative cards in one step: grouped by performance label, naming token (the part of the file name at tokenIndex, split at separator), ad account or review status, each group in a frame, and sorted within groups by last-30-days spend, CPA, ROAS or name. Frames from the previous arrangement are replaced; every moved card's version rises.",
    category: "boards",
    capability: "boards.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      boardId,
      groupBy: z.enum(ARRANGE_GROUPS).describe("none, label, naming_token, ad_account or review_status"),
      sortBy: z
        .enum(ARRANGE_SORTS)
        .optional()
        .describe("spend (default), cpa, roas or name; spend and cpa compare within a currency, the currency with more impressions first"),
      order: z.enum(["asc", "desc"]).optional().describe("Default: spend and ROAS high first, CPA low first, names A-Z; cards without the figure go last"),
      tokenIndex: z.number().int().min(0).max(20).optional().describe("naming_token: which part of the name, 0 = the first (default)"),
      separator: z.string().min(1).max(3).optional().describe("naming_token: what separates the parts (default _)"),
      columns: z.number().int().min(1).max(50).optional().describe("Cards per row in each group (default 3 in frames, 6 without)"),
    }),
    output: BoardWithItemsSchema,
    handler: arrangeBoard,
  }),
  defineTool({
    name: "annotate_board_card",
    title: "Annotate board card",
    description:
      "Annotates a creative card: starts a review comment thread on the creative's current version, pinned to a point of an image (pin x, y from 0 to 1) or at a time of a video (timeSeconds), as add_comment does (sends review.comment).",
    category: "boards",
    capability: "boards.annotate",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ itemId, body: CommentBodySchema, pin: PinSchema.optional(), timeSeconds: TimeSecondsSchema.optional() }),
    output: z.object({ creativeId: z.string(), threadId: z.string(), comment: ReplySchema }),
    handler: annotateBoardCard,
  }),
  defineTool({
    name: "share_board",
    title: "Share board",
    description:
      "Shares a board read-only through a review link for its creatives: guests open boardUrl without an account, see the canvas and comment on cards (as the link's permissions allow). The token is shown only in this answer; revoke_review_link ends it.",
    category: "boards",
    capability: "review.share",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      boardId,
      name: z.string().trim().min(1).max(200).optional().describe("Shown to guests (default: Board: <board name>)"),
      password: z.string().min(LINK_PASSWORD_MIN).max(200).optional().describe(`Guests must give it (at least ${LINK_PASSWORD_MIN} characters)`),
      expiresAt: isoDateTime({ offset: true }).optional().describe("When the link stops working (ISO 8601)"),
      permissions: LinkPermissionsSchema.partial().strict().optional().describe("Defaults: comment true, decide false, download false"),
    }),
    output: z.object({
      link: ReviewLinkSchema,
      token: z.string(),
      url: z.string().describe("The link's guest page"),
      boardUrl: z.string().describe("The shared board's guest page"),
    }),
    handler: shareBoard,
  }),
];
