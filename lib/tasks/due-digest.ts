import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { emitEvent } from "@/lib/events/emit";
import { notifyTasksDue } from "@/lib/notifications/sources";
import { addDays, fromDateString, isTimeZone, localTime, toDateString } from "./local-time";
import { loadPeople, taskUrl } from "./tasks";

/** The digest goes out from 08:00 in the owner's time zone... */
export const DIGEST_FROM_HOUR = 8;
/** ...and not after noon: a morning missed entirely (server down) is not sent in the afternoon. */
export const DIGEST_UNTIL_HOUR = 12;

export interface SentDigest {
  workspaceId: string;
  date: string;
  eventId: string;
  taskCount: number;
}

/** Each active workspace with the time zone of its first owner (UTC when unset or unknown). */
async function workspaceMornings(onlyWorkspaceId?: string): Promise<{ workspaceId: string; timeZone: string }[]> {
  const owners = await getDb().membership.findMany({
    where: { role: "owner", workspace: { status: "active" }, ...(onlyWorkspaceId ? { workspaceId: onlyWorkspaceId } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { workspaceId: true, user: { select: { timeZone: true } } },
  });
  const byWorkspace = new Map<string, string>();
  for (const o of owners) {
    if (byWorkspace.has(o.workspaceId)) continue;
    const tz = o.user.timeZone;
    byWorkspace.set(o.workspaceId, tz && isTimeZone(tz) ? tz : "UTC");
  }
  return [...byWorkspace].map(([workspaceId, timeZone]) => ({ workspaceId, timeZone }));
}

/**
 * The daily `task.due` digest: for every workspace whose owner's morning it is, the open tasks due
 * tomorrow (`due_soon`) and due yesterday (`overdue`, just past due), each with assignees and a link.
 * Runs every quarter hour (zones with :30 and :45 offsets get their 08:00 too). The event's dedupe key
 * (workspace + local date) makes it at most once a day whatever the number of instances and restarts;
 * an empty list sends nothing.
 */
export async function sendDueDigests(now = new Date()): Promise<SentDigest[]> {
  const sent: SentDigest[] = [];
  for (const morning of await workspaceMornings()) {
    const hour = localTime(now, morning.timeZone).hour;
    if (hour < DIGEST_FROM_HOUR || hour >= DIGEST_UNTIL_HOUR) continue;
    const outcome = await sendDigestOn(morning.workspaceId, morning.timeZone, now);
    if (outcome.sent) sent.push({ workspaceId: morning.workspaceId, date: outcome.date, eventId: outcome.eventId!, taskCount: outcome.taskCount });
  }
  return sent;
}

export interface DigestRun {
  workspaceId: string;
  date: string;
  timeZone: string;
  /** false when nothing went out: the day's digest was already sent, or no open task is due tomorrow or was due yesterday. */
  sent: boolean;
  reason: "sent" | "already_sent" | "nothing_due";
  /** The day's task.due event (the earlier one when already sent). */
  eventId: string | null;
  taskCount: number;
}

/**
 * The operator's "run it now" (`admin tasks digest`): one workspace's digest for the local date of `now`
 * in its owner's zone, whatever the hour (the operator chose the moment), still at most once that day.
 */
export async function runDueDigestNow(workspaceId: string, now = new Date()): Promise<DigestRun> {
  const morning = (await workspaceMornings(workspaceId))[0];
  if (!morning) throw new AppError("not_found", `Workspace ${workspaceId} not found (or archived)`);
  return { workspaceId, timeZone: morning.timeZone, ...(await sendDigestOn(workspaceId, morning.timeZone, now)) };
}

async function sendDigestOn(workspaceId: string, timeZone: string, now: Date): Promise<Omit<DigestRun, "workspaceId" | "timeZone">> {
  const db = getDb();
  const local = localTime(now, timeZone);
  const dedupeKey = `task.due:${local.date}`;
  const earlier = await db.webhookEvent.findUnique({ where: { workspaceId_dedupeKey: { workspaceId, dedupeKey } }, select: { id: true, body: true } });
  if (earlier) {
    // The day's notification goes with its event: recorded again from the stored event (once: its key is the
    // event's), in case the process stopped, or the write failed, between the two.
    const { data } = JSON.parse(earlier.body) as { data: { tasks: Parameters<typeof notifyTasksDue>[0]["tasks"] } };
    await notifyTasksDue({ workspaceId, date: local.date, tasks: data.tasks, eventId: earlier.id });
    return { date: local.date, sent: false, reason: "already_sent", eventId: earlier.id, taskCount: 0 };
  }

  const tomorrow = addDays(local.date, 1);
  const yesterday = addDays(local.date, -1);
  const rows = await db.task.findMany({
    where: { workspaceId, status: { not: "done" }, dueDate: { in: [fromDateString(tomorrow), fromDateString(yesterday)] } },
    orderBy: [{ dueDate: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    include: { assignees: { orderBy: { assignedAt: "asc" } } },
  });
  if (!rows.length) return { date: local.date, sent: false, reason: "nothing_due", eventId: null, taskCount: 0 };
  const people = await loadPeople(rows.flatMap((r) => r.assignees.map((a) => a.userId)));
  const tasks = rows.map((row) => {
    const dueDate = toDateString(row.dueDate!);
    return {
      taskId: row.id,
      title: row.title,
      url: taskUrl(row.id),
      kind: dueDate === tomorrow ? ("due_soon" as const) : ("overdue" as const),
      dueDate,
      assignees: row.assignees.map((a) => ({ userId: a.userId, name: people.get(a.userId)?.name ?? "(former member)" })),
    };
  });
  const event = await emitEvent({ workspaceId, type: "task.due", dedupeKey, data: { date: local.date, timeZone, tasks } });
  await notifyTasksDue({ workspaceId, date: local.date, tasks, eventId: event.id });
  return { date: local.date, sent: true, reason: "sent", eventId: event.id, taskCount: tasks.length };
}
