import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { PERFORMANCE_LABELS } from "@/lib/performance/labels";
import { REVIEW_STATUSES } from "@/lib/review/schemas";
import { getBoard, stackOrder } from "./boards";
import { loadVisibleCards } from "./cards";
import { keysBetween } from "./order-key";
import { DEFAULT_SIZE, type ArrangeGroup, type ArrangeSort, type Board, type BoardCard, type BoardItem } from "./schemas";

/** Frames that arrange_board made carry this colour: the next arrangement replaces them (frames drawn by hand stay). */
export const ARRANGED_FRAME = "arranged";

export interface ArrangeInput {
  boardId: string;
  groupBy: ArrangeGroup;
  sortBy?: ArrangeSort;
  order?: "asc" | "desc";
  /** naming_token: which part of the file name (0 = the first), split at `separator`. */
  tokenIndex?: number;
  separator?: string;
  columns?: number;
}

const GAP = 24;
const PADDING = 32;
const TITLE = 56;
const FRAMES_PER_ROW = 4;

/** The token of a naming convention such as `UGC_hook-a_v2.mp4`: the part at `index` of the name without its extension. */
export function namingToken(fileName: string, index: number, separator: string): string | null {
  const stem = fileName.replace(/\.[^.]+$/, "");
  return stem.split(separator)[index]?.trim() || null;
}

/** Each creative's ad account: the one most of its ads run in, else the account its upload went to. */
async function adAccountsOf(workspaceId: string, creativeIds: string[]): Promise<Map<string, string>> {
  const db = getDb();
  const [ads, accounts, creatives] = await Promise.all([
    db.ad.findMany({ where: { workspaceId, creativeId: { in: creativeIds } }, select: { creativeId: true, campaignId: true } }),
    db.adAccount.findMany({ where: { workspaceId }, select: { id: true, platform: true, externalAccountId: true } }),
    db.creative.findMany({ where: { workspaceId, id: { in: creativeIds } }, select: { id: true, uploadId: true } }),
  ]);
  const campaigns = await db.adCampaign.findMany({
    where: { workspaceId, id: { in: [...new Set(ads.map((a) => a.campaignId))] } },
    select: { id: true, adAccountId: true },
  });
  const uploads = await db.upload.findMany({
    where: { workspaceId, id: { in: creatives.flatMap((c) => (c.uploadId ? [c.uploadId] : [])) } },
    select: { id: true, platform: true },
  });
  const accountName = new Map(accounts.map((a) => [a.id, `${a.platform} ${a.externalAccountId}`]));
  const accountOfPlatform = new Map(accounts.map((a) => [a.platform as string, `${a.platform} ${a.externalAccountId}`]));
  const campaignAccount = new Map(campaigns.map((c) => [c.id, c.adAccountId]));
  const counts = new Map<string, Map<string, number>>();
  for (const ad of ads) {
    const account = accountName.get(campaignAccount.get(ad.campaignId) ?? "");
    if (!account) continue;
    const perCreative = counts.get(ad.creativeId) ?? new Map<string, number>();
    perCreative.set(account, (perCreative.get(account) ?? 0) + 1);
    counts.set(ad.creativeId, perCreative);
  }
  const uploadPlatform = new Map(uploads.map((u) => [u.id, u.platform as string]));
  const result = new Map<string, string>();
  for (const c of creatives) {
    const most = [...(counts.get(c.id) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
    const fromUpload = c.uploadId ? accountOfPlatform.get(uploadPlatform.get(c.uploadId) ?? "") : undefined;
    const account = most ?? fromUpload;
    if (account) result.set(c.id, account);
  }
  return result;
}

const NO_GROUP = "(none)";

function groupOrder(groupBy: ArrangeGroup, keys: string[]): string[] {
  const fixed: readonly string[] | null = groupBy === "label" ? PERFORMANCE_LABELS : groupBy === "review_status" ? REVIEW_STATUSES : null;
  const rank = (k: string) => (k === NO_GROUP ? Number.MAX_SAFE_INTEGER : fixed ? fixed.indexOf(k) : 0);
  return [...new Set(keys)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Compares two cards by the chosen figure; cards without it (no conversions, no spend) go last either way. */
function compareCards(sortBy: ArrangeSort, order: "asc" | "desc") {
  const sign = order === "asc" ? 1 : -1;
  return (a: BoardCard, b: BoardCard): number => {
    if (sortBy === "name") return sign * a.fileName.localeCompare(b.fileName) || a.id.localeCompare(b.id);
    const va = a[sortBy];
    const vb = b[sortBy];
    if (va === null || vb === null) return (va === null ? 1 : 0) - (vb === null ? 1 : 0) || a.id.localeCompare(b.id);
    return sign * (va - vb) || a.id.localeCompare(b.id);
  };
}

/**
 * Amounts (spend, CPA) compare only within a currency: the cards' currencies in the order of their impressions
 * (more first, then by code), each currency's cards by the amount. One currency: the amount alone.
 */
function currencyFirst(sortBy: ArrangeSort, cards: BoardCard[]): (a: BoardCard, b: BoardCard) => number {
  if (sortBy !== "spend" && sortBy !== "cpa") return () => 0;
  const impressions = new Map<string, number>();
  for (const c of cards) impressions.set(c.currency, (impressions.get(c.currency) ?? 0) + c.impressions);
  const rank = new Map([...impressions].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([currency], i) => [currency, i]));
  return (a, b) => rank.get(a.currency)! - rank.get(b.currency)!;
}

const DEFAULT_ORDER: Record<ArrangeSort, "asc" | "desc"> = { spend: "desc", cpa: "asc", roas: "desc", name: "asc" };

/**
 * Arranges the board's creative cards in one step: grouped (each group in a frame titled by its value)
 * and sorted within groups, laid out in a grid. Every moved card's version rises, so a writer still
 * holding the old position gets a conflict. Cards of creatives the caller cannot see stay where they are.
 */
export async function arrangeBoard(principal: Principal, input: ArrangeInput): Promise<{ board: Board; items: BoardItem[] }> {
  const db = getDb();
  const board = await db.board.findFirst({ where: { id: input.boardId, workspaceId: principal.workspaceId }, select: { id: true } });
  if (!board) throw notFound("Board");
  const rows = await db.boardItem.findMany({ where: { boardId: board.id, workspaceId: principal.workspaceId, kind: "creative" } });
  const cards = await loadVisibleCards(
    principal,
    rows.flatMap((r) => (r.creativeId ? [r.creativeId] : [])),
  );
  const placed = rows.filter((r) => r.creativeId && cards.has(r.creativeId)).map((row) => ({ row, card: cards.get(row.creativeId!)! }));

  const accounts =
    input.groupBy === "ad_account"
      ? await adAccountsOf(
          principal.workspaceId,
          placed.map((p) => p.card.id),
        )
      : new Map<string, string>();
  const keyOf = (card: BoardCard): string => {
    switch (input.groupBy) {
      case "label":
        return card.label;
      case "review_status":
        return card.reviewStatus;
      case "naming_token":
        return namingToken(card.fileName, input.tokenIndex ?? 0, input.separator ?? "_") ?? NO_GROUP;
      case "ad_account":
        return accounts.get(card.id) ?? NO_GROUP;
      default:
        return "";
    }
  };
  const sortBy = input.sortBy ?? "spend";
  const compare = compareCards(sortBy, input.order ?? DEFAULT_ORDER[sortBy]);
  const groups = groupOrder(
    input.groupBy,
    placed.map((p) => keyOf(p.card)),
  ).map((key) => {
    const members = placed.filter((p) => keyOf(p.card) === key);
    const byCurrency = currencyFirst(
      sortBy,
      members.map((m) => m.card),
    );
    return { key, members: members.sort((a, b) => byCurrency(a.card, b.card) || compare(a.card, b.card)) };
  });

  const { width: cardW, height: cardH } = DEFAULT_SIZE.creative;
  const framed = input.groupBy !== "none";
  const columns = input.columns ?? (framed ? 3 : 6);
  const moves: { id: string; x: number; y: number }[] = [];
  const frames: { text: string; x: number; y: number; width: number; height: number }[] = [];
  let rowX = 0;
  let rowY = 0;
  let rowHeight = 0;
  groups.forEach((group, index) => {
    if (framed && index > 0 && index % FRAMES_PER_ROW === 0) {
      rowX = 0;
      rowY += rowHeight + GAP * 2;
      rowHeight = 0;
    }
    const cols = Math.max(1, Math.min(columns, group.members.length));
    const rowsNeeded = Math.ceil(group.members.length / columns);
    const inner = { x: rowX + (framed ? PADDING : 0), y: rowY + (framed ? TITLE : 0) };
    for (const [i, m] of group.members.entries()) {
      moves.push({ id: m.row.id, x: inner.x + (i % columns) * (cardW + GAP), y: inner.y + Math.floor(i / columns) * (cardH + GAP) });
    }
    const width = cols * (cardW + GAP) - GAP + (framed ? PADDING * 2 : 0);
    const height = rowsNeeded * (cardH + GAP) - GAP + (framed ? TITLE + PADDING : 0);
    if (framed) frames.push({ text: group.key === NO_GROUP ? `No ${input.groupBy.replace("_", " ")}` : group.key, x: rowX, y: rowY, width, height });
    rowX += width + GAP * 2;
    rowHeight = Math.max(rowHeight, height);
  });

  await db.$transaction(async (tx) => {
    const oldFrames = await tx.boardItem.findMany({ where: { boardId: board.id, kind: "frame", color: ARRANGED_FRAME }, select: { id: true } });
    const oldIds = oldFrames.map((f) => f.id);
    if (oldIds.length) {
      await tx.boardItem.deleteMany({
        where: {
          boardId: board.id,
          OR: [{ id: { in: oldIds } }, { kind: "connector", fromItemId: { in: oldIds } }, { kind: "connector", toItemId: { in: oldIds } }],
        },
      });
    }
    for (const move of moves) await tx.boardItem.update({ where: { id: move.id }, data: { x: move.x, y: move.y, version: { increment: 1 } } });
    if (frames.length) {
      const rest = stackOrder(await tx.boardItem.findMany({ where: { boardId: board.id }, select: { id: true, orderKey: true } }));
      const keys = keysBetween(null, rest[0]?.orderKey ?? null, frames.length);
      await tx.boardItem.createMany({
        data: frames.map((f, i) => ({
          id: newId("bi"),
          boardId: board.id,
          workspaceId: principal.workspaceId,
          kind: "frame",
          orderKey: keys[i]!,
          color: ARRANGED_FRAME,
          ...f,
        })),
      });
    }
    await tx.board.update({ where: { id: board.id }, data: { revision: { increment: 1 } } });
  });
  return getBoard(principal, { id: board.id });
}
