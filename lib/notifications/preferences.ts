import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { mailTransport } from "@/lib/mail/send-mail";
import { NOTIFICATION_KIND_INFO, NOTIFICATION_KINDS, type NotificationKind, type NotificationPreferences } from "./schemas";

/** The kinds a member switched off for email in a workspace (none without a row). */
export async function emailDisabledKinds(workspaceId: string, userIds: string[]): Promise<Map<string, Set<string>>> {
  const rows = await getDb().notificationPreference.findMany({ where: { workspaceId, userId: { in: userIds } } });
  return new Map(rows.map((r) => [r.userId, new Set(r.emailDisabledKinds)]));
}

/** The signed-in member's email choices in this workspace, one per kind. */
export async function getMyNotificationPreferences(principal: Principal): Promise<NotificationPreferences> {
  const disabled = (await emailDisabledKinds(principal.workspaceId, [principal.userId])).get(principal.userId) ?? new Set<string>();
  return {
    preferences: NOTIFICATION_KINDS.map((kind) => ({ kind, ...NOTIFICATION_KIND_INFO[kind], email: !disabled.has(kind) })),
    emailAddress: principal.userEmail,
    emailTransport: mailTransport(),
  };
}

/** Changes the signed-in member's email choices: the kinds named are switched on or off, the others kept. */
export async function setMyNotificationPreferences(
  principal: Principal,
  input: { email: Partial<Record<NotificationKind, boolean>> },
): Promise<NotificationPreferences> {
  const changes = Object.entries(input.email) as [NotificationKind, boolean | undefined][];
  if (!changes.length) throw new AppError("invalid_request", "email: name at least one kind to switch on or off");
  const db = getDb();
  const key = { workspaceId: principal.workspaceId, userId: principal.userId };
  const current = new Set((await db.notificationPreference.findUnique({ where: { workspaceId_userId: key } }))?.emailDisabledKinds ?? []);
  for (const [kind, on] of changes) {
    if (on === undefined) continue;
    if (on) current.delete(kind);
    else current.add(kind);
  }
  const emailDisabledKinds = NOTIFICATION_KINDS.filter((k) => current.has(k));
  await db.notificationPreference.upsert({ where: { workspaceId_userId: key }, create: { ...key, emailDisabledKinds }, update: { emailDisabledKinds } });
  return getMyNotificationPreferences(principal);
}
