import { describe, expect, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

// The retention comes from the configuration, as in a deployment.
process.env.NOTIFICATION_RETENTION_DAYS = "30";
await useFreshDatabase("notification_purge");
const { getDb } = await import("@/lib/db/client");
const { purgeOldNotifications } = await import("@/lib/notifications/purge");
const { parseConfig } = await import("@/lib/config");

const DAY = 86_400_000;
// A controlled clock: the purge is asked as of this instant, whatever the machine's time.
const NOW = new Date("2031-06-15T03:17:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

async function notification(id: string, workspaceId: string, createdAt: Date, fannedOut: boolean, recipients: string[]) {
  const db = getDb();
  await db.notification.create({
    data: {
      id,
      workspaceId,
      kind: "mention",
      dedupeKey: `dedupe-${id}`,
      audience: { userIds: recipients },
      title: id,
      body: "",
      path: "/dashboard",
      createdAt,
      fannedOutAt: fannedOut ? new Date(createdAt.getTime() + 60_000) : null,
    },
  });
  for (const recipient of recipients)
    await db.notificationDelivery.create({
      data: { id: `${id}_${recipient}`, notificationId: id, workspaceId, channel: "email", recipient, status: "sent", createdAt, finishedAt: createdAt },
    });
}

describe("notification retention", () => {
  it("deletes notifications older than NOTIFICATION_RETENTION_DAYS with their deliveries, in every workspace, and keeps newer ones", async () => {
    await notification("ntf_old_sent", "ws_a", daysAgo(31), true, ["usr_1", "usr_2"]);
    await notification("ntf_old_never_sent", "ws_b", daysAgo(45), false, []);
    await notification("ntf_edge_kept", "ws_a", daysAgo(29.9), true, ["usr_1"]);
    await notification("ntf_recent_pending", "ws_b", daysAgo(0.001), false, ["usr_3"]);

    expect(await purgeOldNotifications(NOW)).toEqual({ notifications: 2, deliveries: 2 });

    const db = getDb();
    expect((await db.notification.findMany({ orderBy: { id: "asc" } })).map((n) => n.id)).toEqual(["ntf_edge_kept", "ntf_recent_pending"]);
    expect((await db.notificationDelivery.findMany({ orderBy: { id: "asc" } })).map((d) => d.notificationId)).toEqual(["ntf_edge_kept", "ntf_recent_pending"]);

    // A day later the one at the edge is past the window too; running again removes nothing else.
    expect(await purgeOldNotifications(new Date(NOW.getTime() + DAY))).toEqual({ notifications: 1, deliveries: 1 });
    expect(await purgeOldNotifications(new Date(NOW.getTime() + DAY))).toEqual({ notifications: 0, deliveries: 0 });
  });

  it("the retention is a positive number of days (90 unless set)", () => {
    const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;
    expect(parseConfig(env({})).notifications.retentionDays).toBe(90);
    expect(parseConfig(env({ NOTIFICATION_RETENTION_DAYS: "7" })).notifications.retentionDays).toBe(7);
    expect(() => parseConfig(env({ NOTIFICATION_RETENTION_DAYS: "0" }))).toThrow(/NOTIFICATION_RETENTION_DAYS/);
  });
});
