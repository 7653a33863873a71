/**
 * The morning task.due digest with a controlled clock: sendDueDigests(now) is what the quarter-hourly
 * job runs, driven here at chosen instants against a real database.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { useFreshDatabase } from "../helpers/in-process-db";

type Digest = typeof import("@/lib/tasks/due-digest");
let digest: Digest;
let db: ReturnType<typeof import("@/lib/db/client").getDb>;

async function workspaceWithOwnerIn(timeZone: string | null) {
  const { createWorkspace } = await import("@/lib/workspaces/workspaces");
  const { principalForUser } = await import("@/lib/session/principal");
  const { workspaceId, ownerUserId } = await createWorkspace({ name: `TZ ${timeZone}`, plan: "pro" });
  await db.user.update({ where: { id: ownerUserId }, data: { timeZone } });
  const principal = (await principalForUser(ownerUserId, workspaceId))!;
  const tasks = await import("@/lib/tasks/tasks");
  const { list } = await tasks.createTaskList(principal, { name: "Work" });
  const add = async (title: string, dueDate: string | null, status: "todo" | "done" = "todo") =>
    (await tasks.createTask(principal, { listId: list.id, title, dueDate, status, assigneeIds: [ownerUserId] })).task;
  return { workspaceId, ownerUserId, add };
}

const dueEvents = async (workspaceId: string) =>
  (await db.webhookEvent.findMany({ where: { workspaceId, type: "task.due" }, orderBy: { createdAt: "asc" } })).map((e) => JSON.parse(e.body));

beforeAll(async () => {
  await useFreshDatabase("digest");
  digest = await import("@/lib/tasks/due-digest");
  db = (await import("@/lib/db/client")).getDb();
});

describe("task.due", () => {
  it("fires once at 08:00 in the owner's zone, before and after a daylight-saving change, with due_soon and overdue tasks", async () => {
    const ny = await workspaceWithOwnerIn("America/New_York");
    const soon = await ny.add("Due Nov 1", "2026-11-01");
    const late = await ny.add("Due Oct 30", "2026-10-30");
    await ny.add("Due later", "2026-11-05");
    await ny.add("Done already", "2026-11-01", "done");
    await ny.add("No date", null);

    // Oct 31 is still daylight time (UTC-4): 08:00 is 12:00 UTC.
    await digest.sendDueDigests(new Date("2026-10-31T11:59:00Z"));
    expect(await dueEvents(ny.workspaceId)).toHaveLength(0);
    await digest.sendDueDigests(new Date("2026-10-31T12:00:00Z"));
    await digest.sendDueDigests(new Date("2026-10-31T12:15:00Z"));
    await digest.sendDueDigests(new Date("2026-10-31T15:45:00Z"));
    const [first, ...rest] = await dueEvents(ny.workspaceId);
    expect(rest).toHaveLength(0);
    expect(first.data).toMatchObject({ date: "2026-10-31", timeZone: "America/New_York" });
    expect(first.data.tasks).toEqual([
      {
        taskId: late.id,
        title: "Due Oct 30",
        url: late.url,
        kind: "overdue",
        dueDate: "2026-10-30",
        assignees: [{ userId: ny.ownerUserId, name: expect.any(String) }],
      },
      {
        taskId: soon.id,
        title: "Due Nov 1",
        url: soon.url,
        kind: "due_soon",
        dueDate: "2026-11-01",
        assignees: [{ userId: ny.ownerUserId, name: expect.any(String) }],
      },
    ]);

    // Nov 1 is standard time (UTC-5): 12:00 UTC is 07:00, the digest waits until 13:00 UTC.
    await ny.add("Due Nov 2", "2026-11-02");
    await digest.sendDueDigests(new Date("2026-11-01T12:00:00Z"));
    expect(await dueEvents(ny.workspaceId)).toHaveLength(1);
    await digest.sendDueDigests(new Date("2026-11-01T13:00:00Z"));
    const events = await dueEvents(ny.workspaceId);
    expect(events).toHaveLength(2);
    expect(events[1].data.date).toBe("2026-11-01");
    // Nov 1 itself is "today" (listed the morning before); nothing fell due on Oct 31.
    expect(events[1].data.tasks.map((t: any) => [t.title, t.kind])).toEqual([["Due Nov 2", "due_soon"]]);
  });

  it("a day's notification lost after its event (a crash between the two) is recorded by the next run, once", async () => {
    const utc = await workspaceWithOwnerIn("UTC");
    await utc.add("Due tomorrow", "2026-11-11");
    const notifications = () => db.notification.findMany({ where: { workspaceId: utc.workspaceId, kind: "task_due" } });
    await digest.sendDueDigests(new Date("2026-11-10T08:00:00Z"));
    const [event] = await dueEvents(utc.workspaceId);
    expect((await notifications()).map((n) => n.dedupeKey)).toEqual([`task_due:${event.id}`]);
    await db.notification.deleteMany({ where: { workspaceId: utc.workspaceId, kind: "task_due" } });

    await digest.sendDueDigests(new Date("2026-11-10T08:15:00Z"));
    await digest.sendDueDigests(new Date("2026-11-10T08:30:00Z"));
    expect(await dueEvents(utc.workspaceId)).toHaveLength(1);
    const again = await notifications();
    expect(again.map((n) => [n.dedupeKey, n.title])).toEqual([[`task_due:${event.id}`, "Tasks due: 1 on 2026-11-10"]]);
  });

  it("reads a zone east of UTC (the morning starts the evening before in UTC), and sends nothing for an empty list or after noon", async () => {
    const tokyo = await workspaceWithOwnerIn("Asia/Tokyo");
    await tokyo.add("Due Dec 2", "2026-12-02");
    const empty = await workspaceWithOwnerIn("Asia/Tokyo");
    await empty.add("Far away", "2027-06-01");
    // 08:00 on Dec 1 in Tokyo (UTC+9) is 23:00 UTC on Nov 30.
    await digest.sendDueDigests(new Date("2026-11-30T22:59:00Z"));
    expect(await dueEvents(tokyo.workspaceId)).toHaveLength(0);
    await digest.sendDueDigests(new Date("2026-11-30T23:00:00Z"));
    expect((await dueEvents(tokyo.workspaceId)).map((e) => e.data.date)).toEqual(["2026-12-01"]);
    expect(await dueEvents(empty.workspaceId)).toHaveLength(0);

    const lateRiser = await workspaceWithOwnerIn(null); // no zone set: UTC
    await lateRiser.add("Due tomorrow", "2026-12-02");
    await digest.sendDueDigests(new Date("2026-12-01T12:00:00Z")); // noon: the morning is over
    expect(await dueEvents(lateRiser.workspaceId)).toHaveLength(0);
    await digest.sendDueDigests(new Date("2026-12-01T11:45:00Z"));
    expect(await dueEvents(lateRiser.workspaceId)).toHaveLength(1);
  });

  it.runIf(inject("testDb") === "postgres")("sends once when two instances run the same quarter hour against one PostgreSQL database", async () => {
    const shared = await workspaceWithOwnerIn("Europe/Berlin");
    await shared.add("Due Dec 11", "2026-12-11");
    const now = "2026-12-10T07:00:00Z"; // 08:00 in Berlin (UTC+1)
    const run = () =>
      promisify(execFile)(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "fixtures/send-digests.ts")], {
        env: { ...process.env, NOW: now, DATABASE_URL: process.env.DATABASE_URL! },
        cwd: path.resolve(import.meta.dirname, "../.."),
      });
    const outputs = await Promise.all([run(), run(), run()]);
    const sent = outputs.flatMap((o) =>
      (JSON.parse(o.stdout.trim().split("\n").pop()!) as { workspaceId: string }[]).filter((s) => s.workspaceId === shared.workspaceId),
    );
    expect(sent.length).toBeGreaterThanOrEqual(1); // each instance may answer with the one event...
    expect(new Set(sent.map((s: any) => s.eventId)).size).toBe(1); // ...but there is only one
    expect(await dueEvents(shared.workspaceId)).toHaveLength(1);
  });
});
