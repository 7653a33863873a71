import type { Principal } from "@/lib/auth/principal";
import { getDb, queryRows } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
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
  const off = changes.filter(([, on]) => on === false).map(([kind]) => kind);
  const on = changes.filter(([, on]) => on === true).map(([kind]) => kind);
  // One statement, so two changes at once both hold (read, change, write lost the first of them).
  await queryRows(
    `INSERT INTO notification_preferences ("workspaceId", "userId", "emailDisabledKinds", "updatedAt")
     VALUES ($1, $2, $3::text[], $5::timestamp)
     ON CONFLICT ("workspaceId", "userId") DO UPDATE SET
       "emailDisabledKinds" = ARRAY(
         SELECT DISTINCT kind FROM unnest(notification_preferences."emailDisabledKinds" || $3::text[]) AS kind
          WHERE NOT (kind = ANY($4::text[])) ORDER BY kind),
       "updatedAt" = $5::timestamp
     RETURNING "userId"`,
    [principal.workspaceId, principal.userId, off, on, sqlTime(new Date())],
  );
  return getMyNotificationPreferences(principal);
}
