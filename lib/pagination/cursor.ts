import { badRequest } from "@/lib/errors";

/**
 * Keyset pagination over (createdAt desc, id desc): a cursor names the last item
 * of a page, so inserts never shift later pages. Cursors are opaque to clients.
 */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString("base64url");
}

/**
 * A cursor's time, or null: one the database can compare with (years 1 to 9999; a crafted year 0 or a
 * negative year reached PostgreSQL and failed there as a 500).
 */
export function cursorTime(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const date = new Date(value);
  const year = date.getUTCFullYear();
  return Number.isNaN(date.getTime()) || year < 1 || year > 9999 ? null : date;
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const date = cursorTime(createdAt);
    if (typeof id !== "string" || !id || !date) throw new Error("bad cursor");
    return { createdAt: date, id };
  } catch {
    throw badRequest("Invalid cursor: pass back the nextCursor value of a previous page unchanged");
  }
}

/** Prisma `where` fragment selecting the items after the cursor in newest-first order. */
export function afterCursor(cursor: string | undefined | null) {
  if (!cursor) return {};
  const { createdAt, id } = decodeCursor(cursor);
  return { OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
}

export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** Prisma `where` fragment selecting the items after the cursor in oldest-first order (a list read as it grew). */
export function afterCursorOldestFirst(cursor: string | undefined | null) {
  if (!cursor) return {};
  const { createdAt, id } = decodeCursor(cursor);
  return { OR: [{ createdAt: { gt: createdAt } }, { createdAt, id: { gt: id } }] };
}

export const OLDEST_FIRST = [{ createdAt: "asc" as const }, { id: "asc" as const }];

/** Splits the limit+1 rows a query fetched into a page and its nextCursor. */
export function toPage<T extends CursorPosition>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
