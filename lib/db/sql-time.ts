/**
 * A timestamp as a raw-SQL parameter: the ISO string (UTC), cast with `::timestamp(3)` in the
 * statement. (PostgreSQL ignores the zone of a literal cast to timestamp without time zone, and
 * Prisma stores DateTime columns as UTC in such columns, so the value is the same instant.)
 */
export function sqlTime(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}
