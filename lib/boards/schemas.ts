import { z } from "zod";
import { PERFORMANCE_LABELS } from "@/lib/performance/labels";
import { REVIEW_STATUSES } from "@/lib/review/schemas";

export const BOARD_ITEM_KINDS = ["creative", "note", "frame", "connector"] as const;
export type BoardItemKind = (typeof BOARD_ITEM_KINDS)[number];

export const NOTE_COLORS = ["yellow", "pink", "blue", "green", "gray"] as const;

export const ARRANGE_GROUPS = ["none", "label", "naming_token", "ad_account", "review_status"] as const;
export type ArrangeGroup = (typeof ARRANGE_GROUPS)[number];
export const ARRANGE_SORTS = ["spend", "cpa", "roas", "name"] as const;
export type ArrangeSort = (typeof ARRANGE_SORTS)[number];

export const BOARD_LIMITS = {
  name: 120,
  text: 5000,
  itemsPerBoard: 2000,
  /** Canvas coordinates stay within ± this (a runaway drag cannot store Infinity or 1e300). */
  coordinate: 1_000_000,
  size: 20_000,
} as const;

/** Default sizes by kind (connectors have none). */
export const DEFAULT_SIZE: Record<BoardItemKind, { width: number; height: number }> = {
  creative: { width: 220, height: 250 },
  note: { width: 200, height: 140 },
  frame: { width: 640, height: 420 },
  connector: { width: 0, height: 0 },
};

const iso = (what: string) => z.string().describe(`${what} (ISO 8601, UTC)`);

export const BoardSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    revision: z.number().int().describe("Rises with every change to the board or its items: poll it to learn that something changed"),
    itemCount: z.number().int(),
    createdAt: iso("Created"),
    updatedAt: iso("Last renamed or changed"),
  })
  .meta({ id: "Board" });
export type Board = z.infer<typeof BoardSchema>;

export const BoardCardSchema = z
  .object({
    id: z.string(),
    fileName: z.string(),
    kind: z.enum(["image", "video"]),
    status: z.enum(["importing", "ready", "failed"]),
    mediaPath: z.string().nullable().describe("`/api/media/<id>` once ready (same key or session)"),
    thumbnails: z
      .object({ small: z.string().describe("320 px wide WebP"), large: z.string().describe("960 px wide WebP") })
      .nullable()
      .optional()
      .describe("Thumbnails (a video's poster frame) once ready, cached as immutable"),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    durationSeconds: z.number().nullable(),
    reviewStatus: z.enum(REVIEW_STATUSES),
    openThreads: z.number().int().describe("Unresolved comment threads on the current version"),
    label: z.enum(PERFORMANCE_LABELS).describe("The last rollup's label (neutral before any delivery)"),
    currency: z
      .string()
      .describe(
        "The currency (ISO 4217) spend and cpa are in: the creative's ad accounts in one currency, the one with more impressions when it delivers in two",
      ),
    spend: z.number().describe("Last 30 days, major units of currency"),
    impressions: z.number().int(),
    conversions: z.number().int(),
    cpa: z.number().nullable(),
    roas: z.number().nullable(),
    ctr: z.number().nullable(),
  })
  .meta({ id: "BoardCard" });
export type BoardCard = z.infer<typeof BoardCardSchema>;

export const BoardItemSchema = z
  .object({
    id: z.string(),
    boardId: z.string(),
    kind: z.enum(BOARD_ITEM_KINDS),
    orderKey: z.string().describe("Fractional index: items stack in ascending order of this key (code-unit order)"),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
    version: z.number().int().describe("Pass it back when changing the item: a write naming an older version answers 409 conflict"),
    creativeId: z.string().nullable(),
    text: z.string().nullable().describe("A note's text or a frame's title"),
    color: z.string().nullable(),
    fromItemId: z.string().nullable().describe("Connectors: the item it starts at"),
    toItemId: z.string().nullable().describe("Connectors: the item it ends at"),
    card: BoardCardSchema.nullable().describe(
      "Creative cards: the creative as it is now; null for other kinds, or when the caller may not see that creative (or it was deleted)",
    ),
    updatedAt: iso("Last changed"),
  })
  .meta({ id: "BoardItem" });
export type BoardItem = z.infer<typeof BoardItemSchema>;

export const BoardWithItemsSchema = z.object({ board: BoardSchema, items: z.array(BoardItemSchema).describe("Every item, bottom of the stack first") });
