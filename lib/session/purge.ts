import { getDb } from "@/lib/db/client";
import { SECURITY_EVENT_KEEP_DAYS } from "./security-events";

const DAY_MS = 86_400_000;
/** How long a password reset or address confirmation link is kept once used or expired (docs/decisions.md). */
export const SPENT_LINK_KEEP_DAYS = 7;
/** Rows deleted per statement, so one purge after a long pause never holds a huge delete. */
const BATCH = 1000;

/**
 * Deletes password reset and address confirmation links used or expired more than SPENT_LINK_KEEP_DAYS ago; a link
 * that still works is never touched. Run by the daily purge job.
 */
export async function purgeSpentAccountLinks(now = new Date()): Promise<{ passwordResets: number; emailVerifications: number }> {
  const before = new Date(now.getTime() - SPENT_LINK_KEEP_DAYS * DAY_MS);
  const spent = { OR: [{ usedAt: { lt: before } }, { expiresAt: { lt: before } }] };
  const db = getDb();
  const passwordResets = await inBatches(
    () => db.passwordReset.findMany({ where: spent, select: { id: true }, take: BATCH }),
    (ids) => db.passwordReset.deleteMany({ where: { id: { in: ids } } }),
  );
  const emailVerifications = await inBatches(
    () => db.emailVerification.findMany({ where: spent, select: { id: true }, take: BATCH }),
    (ids) => db.emailVerification.deleteMany({ where: { id: { in: ids } } }),
  );
  return { passwordResets, emailVerifications };
}

/** Deletes security events (the Security page's activity) older than SECURITY_EVENT_KEEP_DAYS. Run by the daily purge job. */
export async function purgeOldSecurityEvents(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - SECURITY_EVENT_KEEP_DAYS * DAY_MS);
  const db = getDb();
  return inBatches(
    () => db.securityEvent.findMany({ where: { createdAt: { lt: before } }, select: { id: true }, take: BATCH }),
    (ids) => db.securityEvent.deleteMany({ where: { id: { in: ids } } }),
  );
}

async function inBatches(next: () => Promise<{ id: string }[]>, remove: (ids: string[]) => Promise<{ count: number }>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await next();
    if (batch.length > 0) deleted += (await remove(batch.map((r) => r.id))).count;
    if (batch.length < BATCH) return deleted;
  }
}
