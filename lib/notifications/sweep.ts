import { getDb } from "@/lib/db/client";
import { sendEvent } from "@/lib/jobs/outbox";
import { unfinishedNotifications } from "./fan-out";
import { NOTIFICATION_FAN_OUT_EVENT } from "./job-events";
import { notifyAdAccountNeedsReconnect } from "./sources";

/**
 * Ad accounts that moved to needs_reconnect in the last day: each transition is told once (its
 * dedupe key holds the time the account last changed). The platform adapters that notice a
 * refused token are infrastructure and know no notifications, so this sweep notices for them.
 */
export async function notifyAccountsNeedingReconnect(now: Date): Promise<number> {
  const accounts = await getDb().adAccount.findMany({
    where: { status: "needs_reconnect", updatedAt: { gt: new Date(now.getTime() - 24 * 3600_000) } },
    select: { id: true, workspaceId: true, platform: true, externalAccountId: true, name: true, statusReason: true, updatedAt: true },
    take: 500,
  });
  for (const account of accounts) await notifyAdAccountNeedsReconnect({ workspaceId: account.workspaceId, account });
  return accounts.length;
}

/**
 * The minute's sweep: accounts to reconnect, and notifications whose fan-out job event is sent
 * again (with Inngest, the event goes out after the commit and could be lost with the process; the
 * same id deduplicates it where it did arrive). A fan-out that ended without finishing (a mail server
 * down longer than its retries) runs again every half hour for a day (fanOutEventId).
 */
export async function sweepNotifications(now: Date): Promise<{ reconnect: number; requeued: number }> {
  const reconnect = await notifyAccountsNeedingReconnect(now);
  const unfinished = await unfinishedNotifications(now);
  if (unfinished.length)
    await sendEvent(unfinished.map(({ notificationId, eventId }) => ({ name: NOTIFICATION_FAN_OUT_EVENT, id: eventId, data: { notificationId } })));
  return { reconnect, requeued: unfinished.length };
}
