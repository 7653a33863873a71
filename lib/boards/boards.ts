import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, badRequest, conflict, notFound } from "@/lib/errors";
import type { BoardItem as BoardItemRow, Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { isCreativeVisible } from "@/lib/creatives/list-creatives";
import { loadVisibleCards } from "./cards";
import { compareOrderKeys, keyAfter, keyBetween } from "./order-key";
import { BOARD_LIMITS, DEFAULT_SIZE, type Board, type BoardCard, type BoardItem, type BoardItemKind } from "./schemas";

type Tx = Prisma.TransactionClient;
type BoardRow = { id: string; name: string; revision: number; createdAt: Date; updatedAt: Date; _count: { items: number } };

const BOARD_SELECT = { id: true, name: true, revision: true, createdAt: true, updatedAt: true, _count: { select: { items: true } } } as const;

function toBoard(row: BoardRow): Board {
  return {
    id: row.id,
    name: row.name,
    revision: row.revision,
    itemCount: row._count.items,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toItem(row: BoardItemRow, cards: Map<string, BoardCard>): BoardItem {
  return {
    id: row.id,
    boardId: row.boardId,
    kind: row.kind as BoardItemKind,
    orderKey: row.orderKey,
    x: row.x,
    y: row.y,
    width: row.width,
    height: row.height,
    version: row.version,
    creativeId: row.creativeId,
    text: row.text,
    color: row.color,
    fromItemId: row.fromItemId,
    toItemId: row.toItemId,
    card: row.creativeId ? (cards.get(row.creativeId) ?? null) : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Items bottom of the stack first (sorted here: the keys' order is code-unit order, whatever the database collation). */
export function stackOrder<T extends { orderKey: string; id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => compareOrderKeys(a.orderKey, b.orderKey) || compareOrderKeys(a.id, b.id));
}

async function requireBoard(principal: Principal, id: string, db: Tx | ReturnType<typeof getDb> = getDb()): Promise<BoardRow> {
  const row = await db.board.findFirst({ where: { id, workspaceId: principal.workspaceId }, select: BOARD_SELECT });
  if (!row) throw notFound("Board");
  return row;
}

async function itemsOf(principal: Principal, boardId: string): Promise<BoardItem[]> {
  const rows = stackOrder(await getDb().boardItem.findMany({ where: { boardId, workspaceId: principal.workspaceId } }));
  const cards = await loadVisibleCards(
    principal,
    rows.flatMap((r) => (r.creativeId ? [r.creativeId] : [])),
  );
  return rows.map((r) => toItem(r, cards));
}

async function oneItem(principal: Principal, row: BoardItemRow): Promise<BoardItem> {
  return toItem(row, await loadVisibleCards(principal, row.creativeId ? [row.creativeId] : []));
}

/**
 * Raises the board's revision. Each write does this before it reads the board's other items: the update locks
 * the board's row, so writes to one board take turns and each reads what the one before it committed (on
 * PostgreSQL two stack moves would otherwise pick the same place, or a connector could join a removed item).
 */
const bumpRevision = (tx: Tx, boardId: string) => tx.board.update({ where: { id: boardId }, data: { revision: { increment: 1 } }, select: { revision: true } });

// ---- boards ----

export async function listBoards(principal: Principal, input: { limit: number; cursor?: string }): Promise<{ boards: Board[]; nextCursor: string | null }> {
  const rows = await getDb().board.findMany({
    where: { workspaceId: principal.workspaceId, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
    select: BOARD_SELECT,
  });
  const page = toPage(rows, input.limit);
  return { boards: page.items.map(toBoard), nextCursor: page.nextCursor };
}

export async function createBoard(principal: Principal, input: { name: string }): Promise<{ board: Board }> {
  const row = await getDb().board.create({
    data: { id: newId("brd"), workspaceId: principal.workspaceId, name: input.name, createdById: principal.userId },
    select: BOARD_SELECT,
  });
  return { board: toBoard(row) };
}

export async function renameBoard(principal: Principal, input: { id: string; name: string }): Promise<{ board: Board }> {
  await requireBoard(principal, input.id);
  const row = await getDb().board.update({ where: { id: input.id }, data: { name: input.name, revision: { increment: 1 } }, select: BOARD_SELECT });
  return { board: toBoard(row) };
}

/** Deletes a board with its items; review links that shared it are revoked (their creatives were shared for the board). */
export async function deleteBoard(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  await requireBoard(principal, input.id);
  await getDb().$transaction(async (tx) => {
    // The board's row first: a share_board in flight (it holds the row FOR SHARE while it writes its link) commits
    // before the shares are read here, and one that comes later finds no board; no link outlives the board active.
    await tx.$queryRaw`SELECT id FROM boards WHERE id = ${input.id} FOR UPDATE`;
    const shares = await tx.boardShare.findMany({ where: { boardId: input.id, workspaceId: principal.workspaceId }, select: { linkId: true } });
    await tx.reviewLink.updateMany({
      where: { id: { in: shares.map((s) => s.linkId) }, workspaceId: principal.workspaceId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    await tx.boardShare.deleteMany({ where: { boardId: input.id, workspaceId: principal.workspaceId } });
    await tx.board.deleteMany({ where: { id: input.id, workspaceId: principal.workspaceId } });
  });
  return { ok: true };
}

export async function getBoard(principal: Principal, input: { id: string }): Promise<{ board: Board; items: BoardItem[] }> {
  const board = await requireBoard(principal, input.id);
  return { board: toBoard(board), items: await itemsOf(principal, board.id) };
}

/** The board's revision alone: what an open canvas polls to learn that someone else changed it. */
export async function getBoardRevision(principal: Principal, input: { id: string }): Promise<{ id: string; revision: number }> {
  const row = await getDb().board.findFirst({ where: { id: input.id, workspaceId: principal.workspaceId }, select: { id: true, revision: true } });
  if (!row) throw notFound("Board");
  return row;
}

// ---- items ----

export interface AddItemInput {
  boardId: string;
  kind: BoardItemKind;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  creativeId?: string;
  text?: string;
  color?: string;
  fromItemId?: string;
  toItemId?: string;
}

async function topKey(tx: Tx, boardId: string): Promise<string | null> {
  const keys = await tx.boardItem.findMany({ where: { boardId }, select: { orderKey: true, id: true } });
  return stackOrder(keys).at(-1)?.orderKey ?? null;
}

/** What each kind needs and refuses, checked before anything is written. */
async function checkNewItem(principal: Principal, input: AddItemInput): Promise<void> {
  const has = {
    creativeId: input.creativeId !== undefined,
    text: input.text !== undefined,
    color: input.color !== undefined,
    ends: input.fromItemId !== undefined || input.toItemId !== undefined,
  };
  const refuse = (field: string) => badRequest(`${field}: not used by ${input.kind} items`);
  if (input.kind === "creative") {
    if (!input.creativeId) throw badRequest("creativeId: a creative card needs the creative");
    if (has.text) throw refuse("text");
    if (has.color) throw refuse("color");
    if (!(await isCreativeVisible(principal, input.creativeId))) throw notFound("Creative");
  } else if (has.creativeId) throw refuse("creativeId");
  if (input.kind === "connector") {
    if (!input.fromItemId || !input.toItemId) throw badRequest("fromItemId and toItemId: a connector joins two items");
    if (input.fromItemId === input.toItemId) throw badRequest("toItemId: a connector joins two different items");
    if (has.color) throw refuse("color");
  } else if (has.ends) throw refuse("fromItemId/toItemId");
  if (input.kind === "frame" && has.color) throw refuse("color");
}

export async function addBoardItem(principal: Principal, input: AddItemInput): Promise<{ item: BoardItem; revision: number }> {
  await requireBoard(principal, input.boardId);
  await checkNewItem(principal, input);
  const size = DEFAULT_SIZE[input.kind];
  const row = await getDb().$transaction(async (tx) => {
    const { revision } = await bumpRevision(tx, input.boardId);
    const count = await tx.boardItem.count({ where: { boardId: input.boardId } });
    if (count >= BOARD_LIMITS.itemsPerBoard)
      throw new AppError("limit_exceeded", `A board holds at most ${BOARD_LIMITS.itemsPerBoard} items; remove some first`);
    if (input.kind === "connector") {
      const ends = await tx.boardItem.findMany({
        where: { boardId: input.boardId, id: { in: [input.fromItemId!, input.toItemId!] }, kind: { not: "connector" } },
        select: { id: true },
      });
      if (ends.length !== 2) throw notFound("Board item to connect");
    }
    const item = await tx.boardItem.create({
      data: {
        id: newId("bi"),
        boardId: input.boardId,
        workspaceId: principal.workspaceId,
        kind: input.kind,
        orderKey: input.kind === "frame" ? keyBetween(null, (await bottomKey(tx, input.boardId)) ?? null) : keyAfter(await topKey(tx, input.boardId)),
        x: input.x ?? 0,
        y: input.y ?? 0,
        width: input.kind === "connector" ? 0 : (input.width ?? size.width),
        height: input.kind === "connector" ? 0 : (input.height ?? size.height),
        creativeId: input.creativeId ?? null,
        text: input.text ?? (input.kind === "note" || input.kind === "frame" ? "" : null),
        color: input.kind === "note" ? (input.color ?? "yellow") : null,
        fromItemId: input.fromItemId ?? null,
        toItemId: input.toItemId ?? null,
      },
    });
    return { item, revision };
  });
  return { item: await oneItem(principal, row.item), revision: row.revision };
}

/** Frames go to the bottom of the stack so the cards placed on them stay visible. */
async function bottomKey(tx: Tx, boardId: string): Promise<string | null> {
  const keys = await tx.boardItem.findMany({ where: { boardId }, select: { orderKey: true, id: true } });
  return stackOrder(keys)[0]?.orderKey ?? null;
}

/**
 * Changes one item if it is still at `version`; otherwise 409 conflict naming the version it is at,
 * so a writer holding an older copy never overwrites someone else's move. Bumps the board's revision.
 */
async function writeItem(
  principal: Principal,
  id: string,
  version: number,
  change: (tx: Tx, row: BoardItemRow) => Promise<Prisma.BoardItemUpdateManyMutationInput>,
): Promise<{ item: BoardItem; revision: number }> {
  const result = await getDb().$transaction(async (tx) => {
    const found = await tx.boardItem.findFirst({ where: { id, workspaceId: principal.workspaceId }, select: { boardId: true } });
    if (!found) throw notFound("Board item");
    const { revision } = await bumpRevision(tx, found.boardId);
    // Read again under the board's lock: what a write that went first left.
    const row = await tx.boardItem.findUnique({ where: { id } });
    if (!row) throw notFound("Board item");
    if (row.version !== version) throw staleVersion(row, version);
    const data = await change(tx, row);
    const { count } = await tx.boardItem.updateMany({ where: { id, version }, data: { ...data, version: { increment: 1 } } });
    if (!count) throw await staleOrGone(tx, id, version);
    return { row: await tx.boardItem.findUniqueOrThrow({ where: { id } }), revision };
  });
  return { item: await oneItem(principal, result.row), revision: result.revision };
}

/** A conditional write that matched nothing: the item moved on (conflict) or was removed meanwhile (not found). */
async function staleOrGone(tx: Tx, id: string, version: number) {
  const now = await tx.boardItem.findUnique({ where: { id }, select: { id: true, version: true } });
  return now ? staleVersion(now, version) : notFound("Board item");
}

function staleVersion(row: { id: string; version: number }, version: number) {
  return conflict(`Board item ${row.id} is at version ${row.version}, not ${version}: someone else changed it; reload the board and try again`);
}

/** Where in the stack a move puts the item: on top, at the bottom, or just above another item. */
async function restack(tx: Tx, row: BoardItemRow, input: { layer?: "front" | "back"; above?: string }): Promise<string | undefined> {
  if (!input.layer && !input.above) return undefined;
  const others = stackOrder(await tx.boardItem.findMany({ where: { boardId: row.boardId, id: { not: row.id } }, select: { id: true, orderKey: true } }));
  if (input.layer === "front") return keyAfter(others.at(-1)?.orderKey ?? null);
  if (input.layer === "back") return keyBetween(null, others[0]?.orderKey ?? null);
  const at = others.findIndex((o) => o.id === input.above);
  if (at < 0) throw notFound("Board item to place above");
  return keyBetween(others[at]!.orderKey, others[at + 1]?.orderKey ?? null);
}

export async function moveBoardItem(
  principal: Principal,
  input: { id: string; version: number; x: number; y: number; layer?: "front" | "back"; above?: string },
): Promise<{ item: BoardItem; revision: number }> {
  if (input.layer && input.above) throw badRequest("Give layer or above, not both");
  return writeItem(principal, input.id, input.version, async (tx, row) => {
    if (row.kind === "connector") throw badRequest("A connector follows the items it joins; move those instead");
    const orderKey = await restack(tx, row, input);
    return { x: input.x, y: input.y, ...(orderKey ? { orderKey } : {}) };
  });
}

export async function resizeBoardItem(
  principal: Principal,
  input: { id: string; version: number; width: number; height: number; x?: number; y?: number },
): Promise<{ item: BoardItem; revision: number }> {
  return writeItem(principal, input.id, input.version, async (_tx, row) => {
    if (row.kind === "connector") throw badRequest("A connector has no size");
    return { width: input.width, height: input.height, ...(input.x !== undefined ? { x: input.x } : {}), ...(input.y !== undefined ? { y: input.y } : {}) };
  });
}

export async function editBoardItem(
  principal: Principal,
  input: { id: string; version: number; text?: string; color?: string },
): Promise<{ item: BoardItem; revision: number }> {
  if (input.text === undefined && input.color === undefined) throw badRequest("Give text or color to change");
  return writeItem(principal, input.id, input.version, async (_tx, row) => {
    if (input.text !== undefined && row.kind !== "note" && row.kind !== "frame" && row.kind !== "connector")
      throw badRequest(`text: ${row.kind} items have no text`);
    if (input.color !== undefined && row.kind !== "note") throw badRequest(`color: only notes have a colour`);
    return { ...(input.text !== undefined ? { text: input.text } : {}), ...(input.color !== undefined ? { color: input.color } : {}) };
  });
}

/** Removes an item and the connectors attached to it. With `version`, a stale copy answers conflict instead. */
export async function removeBoardItem(principal: Principal, input: { id: string; version?: number }): Promise<{ removed: string[]; revision: number }> {
  return getDb().$transaction(async (tx) => {
    const found = await tx.boardItem.findFirst({ where: { id: input.id, workspaceId: principal.workspaceId }, select: { boardId: true } });
    if (!found) throw notFound("Board item");
    const { revision } = await bumpRevision(tx, found.boardId);
    const row = await tx.boardItem.findUnique({ where: { id: input.id } });
    if (!row) throw notFound("Board item");
    if (input.version !== undefined && row.version !== input.version) throw staleVersion(row, input.version);
    const attached = await tx.boardItem.findMany({
      where: { boardId: row.boardId, kind: "connector", OR: [{ fromItemId: row.id }, { toItemId: row.id }] },
      select: { id: true },
    });
    const { count } = await tx.boardItem.deleteMany({ where: { id: row.id, ...(input.version !== undefined ? { version: input.version } : {}) } });
    if (!count) throw await staleOrGone(tx, row.id, input.version ?? row.version);
    const ids = [row.id, ...attached.map((a) => a.id)];
    await tx.boardItem.deleteMany({ where: { id: { in: ids.slice(1) } } });
    return { removed: ids, revision };
  });
}
