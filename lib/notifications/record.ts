import { inTransaction } from "@/lib/db/client";
import { sqlTime } from "@/lib/db/sql-time";
import { newId } from "@/lib/ids";
import { enqueueInTransaction } from "@/lib/jobs/outbox";
import { log } from "@/lib/log";
import type { Role } from "@/lib/generated/prisma/enums";
import { NOTIFICATION_FAN_OUT_EVENT } from "./job-events";
import type { NotificationKind } from "./schemas";

/** Who a notification concerns, resolved to members when it is fanned out. */
export interface Audience {
  /** These members (those still in the workspace). */
  userIds?: string[];
  /** Every member with one of these roles. */
  roles?: Role[];
  /** Left out: the person who did it is not told about their own action. */
  exceptUserId?: string | null;
}

export interface NotificationInput {
  workspaceId: string;
  kind: NotificationKind;
  /** Recording the same key again in the workspace records nothing (retried steps, repeated events). */
  dedupeKey: string;
  audience: Audience;
  /** One line: the email subject and the Slack message's first line. */
  title: string;
  /** A few plain lines of what happened. */
  body: string;
  /** Dashboard path that shows it, e.g. /dashboard/library/cr_… */
  path: string;
}

const INSERT_NOTIFICATION = `
  INSERT INTO notifications (id, "workspaceId", kind, "dedupeKey", audience, title, body, path, "createdAt")
  VALUES ($1::text, $2::text, $3::text, $4::text, $5::jsonb, $6::text, $7::text, $8::text, $9::timestamp(3))
  ON CONFLICT ("workspaceId", "dedupeKey") DO NOTHING
  RETURNING id`;

/**
 * Records a notification and its fan-out job in one transaction, so it is sent once the job runs,
 * whatever happens to this process after the commit. Call it after the domain change committed.
 * Notifications are extra: a failure to record one is logged and does not fail the caller.
 */
export async function recordNotification(input: NotificationInput): Promise<{ id: string } | null> {
  try {
    const id = newId("ntf");
    const title = input.title.slice(0, 300);
    const { created, wake } = await inTransaction(async (tx) => {
      const rows = await tx.queryRows<{ id: string }>(INSERT_NOTIFICATION, [
        id,
        input.workspaceId,
        input.kind,
        input.dedupeKey,
        JSON.stringify(input.audience),
        title,
        input.body.slice(0, 4000),
        input.path,
        sqlTime(new Date()),
      ]);
      if (!rows.length) return { created: false, wake: async () => undefined };
      return { created: true, wake: await enqueueInTransaction(tx, [{ name: NOTIFICATION_FAN_OUT_EVENT, id: `notify-${id}`, data: { notificationId: id } }]) };
    });
    await wake();
    return created ? { id } : null;
  } catch (err) {
    log.warn("notification not recorded", { kind: input.kind, workspaceId: input.workspaceId, err });
    return null;
  }
}
