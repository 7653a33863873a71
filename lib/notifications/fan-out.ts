import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { isPermanentMailFailure, sendMail } from "@/lib/mail/send-mail";
import { getConfig } from "@/lib/services";
import { emailDisabledKinds } from "./preferences";
import type { Audience } from "./record";
import { postToSlack, slackMessage } from "./slack";

export const SETTINGS_PATH = "/dashboard/settings/notifications";

/** The members a notification goes to by email: its audience, still members, minus the actor and those who switched the kind off. */
export async function emailRecipients(notificationId: string): Promise<string[]> {
  const db = getDb();
  const n = await db.notification.findUnique({ where: { id: notificationId } });
  if (!n) return [];
  const audience = n.audience as Audience;
  const members = await db.membership.findMany({
    where: {
      workspaceId: n.workspaceId,
      OR: [
        ...(audience.userIds?.length ? [{ userId: { in: audience.userIds } }] : []),
        ...(audience.roles?.length ? [{ role: { in: audience.roles as Role[] } }] : []),
      ],
    },
    select: { userId: true },
    orderBy: { createdAt: "asc" },
  });
  if (!audience.userIds?.length && !audience.roles?.length) return [];
  const ids = [...new Set(members.map((m) => m.userId))].filter((id) => id !== audience.exceptUserId);
  const disabled = await emailDisabledKinds(n.workspaceId, ids);
  return ids.filter((id) => !disabled.get(id)?.has(n.kind));
}

type DeliveryOutcome = "sent" | "outbox" | "skipped" | "interrupted" | "refused";

/**
 * Claims the (notification, channel, recipient) delivery before sending, so a message goes at
 * most once: a claim found still `sending` means an earlier attempt died mid-send, and it is not
 * sent again (marked `interrupted`) rather than risk a second copy. A `failed` one is tried again.
 * A permanent refusal (`isPermanent`, e.g. SMTP 550 for an address that is gone) is recorded as
 * `refused` and not thrown: retrying it only fails again, and a step that fails for good fails the
 * fan-out, so everyone after that recipient (and the Slack channel) lost the notification.
 */
async function deliverOnce(
  notificationId: string,
  workspaceId: string,
  channel: "email" | "slack",
  recipient: string,
  send: () => Promise<"sent" | "outbox" | "skipped">,
  isPermanent: (err: unknown) => boolean = () => false,
): Promise<DeliveryOutcome> {
  const db = getDb();
  const key = { notificationId, channel, recipient };
  const claimed = await db.notificationDelivery.createMany({ data: [{ id: newId("ntd"), workspaceId, status: "sending", ...key }], skipDuplicates: true });
  if (!claimed.count) {
    const existing = await db.notificationDelivery.findUnique({ where: { notificationId_channel_recipient: key } });
    if (existing?.status === "sending") {
      await db.notificationDelivery.update({
        where: { id: existing.id },
        data: { status: "interrupted", error: "The server stopped while sending; not sent again so that nobody gets it twice", finishedAt: new Date() },
      });
      return "interrupted";
    }
    if (existing?.status !== "failed") return (existing?.status as DeliveryOutcome) ?? "skipped";
    await db.notificationDelivery.update({ where: { id: existing.id }, data: { status: "sending", error: null } });
  }
  try {
    const status = await send();
    await db.notificationDelivery.update({ where: { notificationId_channel_recipient: key }, data: { status, finishedAt: new Date() } });
    return status;
  } catch (err) {
    const refused = isPermanent(err);
    await db.notificationDelivery.update({
      where: { notificationId_channel_recipient: key },
      data: { status: refused ? "refused" : "failed", error: (err as Error).message.slice(0, 500), finishedAt: new Date() },
    });
    if (refused) return "refused";
    throw err;
  }
}

function emailText(n: { body: string; path: string }): string {
  const base = getConfig().publicBaseUrl;
  return [n.body, "", `Open it in Adloom: ${base}${n.path}`, "", `You get this email because of your notification settings: ${base}${SETTINGS_PATH}`].join(
    "\n",
  );
}

/** One email of a notification to one member (SMTP, or the outbox when no SMTP server is configured). */
export async function deliverEmail(notificationId: string, userId: string): Promise<DeliveryOutcome> {
  const db = getDb();
  const n = await db.notification.findUnique({ where: { id: notificationId } });
  if (!n) return "skipped";
  return deliverOnce(
    n.id,
    n.workspaceId,
    "email",
    userId,
    async () => {
      const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
      if (!user) return "skipped";
      const { via } = await sendMail({ to: user.email, subject: n.title, text: emailText(n) });
      return via === "smtp" ? "sent" : "outbox";
    },
    isPermanentMailFailure,
  );
}

/** The notification's message to the workspace's Slack channel, when there is one that takes its kind. */
export async function deliverSlack(notificationId: string): Promise<DeliveryOutcome> {
  const db = getDb();
  const n = await db.notification.findUnique({ where: { id: notificationId } });
  if (!n) return "skipped";
  const channel = await db.slackChannel.findUnique({ where: { workspaceId: n.workspaceId }, select: { disabledKinds: true } });
  if (!channel || channel.disabledKinds.includes(n.kind)) return "skipped";
  return deliverOnce(n.id, n.workspaceId, "slack", "slack", async () => {
    const result = await postToSlack(n.workspaceId, slackMessage(n.title, n.body, `${getConfig().publicBaseUrl}${n.path}`));
    return result === "sent" ? "sent" : "skipped";
  });
}

export async function markFannedOut(notificationId: string): Promise<void> {
  await getDb().notification.updateMany({ where: { id: notificationId, fannedOutAt: null }, data: { fannedOutAt: new Date() } });
}

/**
 * A fan-out still unfinished this long after its notification was recorded has ended without finishing: its steps'
 * retries (four each, with backoff) are spent well within it, by a mail server down the whole time, say.
 */
export const FAN_OUT_GIVEN_UP_MS = 30 * 60_000;

/**
 * The id of the fan-out job event the sweep sends for an unfinished notification. At first the original event's own
 * id: an event lost on its way (Inngest mode) is sent again, and one that arrived deduplicates it. Once the fan-out
 * has ended without finishing (FAN_OUT_GIVEN_UP_MS), a new id per FAN_OUT_GIVEN_UP_MS since it was recorded, so it
 * runs again then; its deliveries that went out are not repeated (deliverOnce), those that failed are tried again.
 * The windows count from the notification, not the clock: windows on the clock's half hours would let two sweeps a
 * minute apart (at 31 and 32 minutes, across a half hour) start two runs where one was meant.
 */
export function fanOutEventId(notificationId: string, createdAt: Date, now: Date): string {
  const window = Math.floor((now.getTime() - createdAt.getTime()) / FAN_OUT_GIVEN_UP_MS);
  if (window < 1) return `notify-${notificationId}`;
  return `notify-${notificationId}-again-${window}`;
}

/** Notifications recorded over `olderThanMs` ago, under a day ago, and not yet fanned out, with the event id to send each. */
export async function unfinishedNotifications(now: Date, olderThanMs = 2 * 60_000): Promise<{ notificationId: string; eventId: string }[]> {
  const rows = await getDb().notification.findMany({
    where: { fannedOutAt: null, createdAt: { lt: new Date(now.getTime() - olderThanMs), gt: new Date(now.getTime() - 24 * 3600_000) } },
    select: { id: true, createdAt: true },
    orderBy: { createdAt: "asc" },
    take: 200,
  });
  if (rows.length) log.info("notifications not yet fanned out, queued again", { count: rows.length });
  return rows.map((r) => ({ notificationId: r.id, eventId: fanOutEventId(r.id, r.createdAt, now) }));
}
