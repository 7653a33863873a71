import type { Principal } from "@/lib/auth/principal";
import { emitEventsInTransaction } from "@/lib/events/emit";
import type { Prisma } from "@/lib/generated/prisma/client";
import { notifyMentions, notifyTaskAssigned } from "@/lib/notifications/sources";
import type { Task, TaskComment } from "./task-schema";

/** What to run once the transaction that recorded a task event has committed: its delivery, flows and notifications. */
export type AfterTaskCommit = () => Promise<void>;

/** Stores `task.assigned` for the people newly assigned, in the transaction of the change that assigns them. */
export async function recordTaskAssigned(
  tx: Prisma.TransactionClient,
  principal: Principal,
  task: Task,
  list: { id: string; name: string },
  newAssigneeIds: string[],
): Promise<AfterTaskCommit> {
  const added = new Set(newAssigneeIds);
  const assignedBy = { userId: principal.userId, name: principal.userName };
  const event = await emitEventsInTransaction(tx, principal.workspaceId, "task.assigned", [
    {
      data: {
        task: { taskId: task.id, title: task.title, url: task.url, dueDate: task.dueDate },
        list: { listId: list.id, name: list.name },
        assignees: task.assignees.filter((a) => added.has(a.userId)).map(({ userId, name, email }) => ({ userId, name, email })),
        assignedBy,
      },
    },
  ]);
  return async () => {
    await event.afterCommit();
    await notifyTaskAssigned({
      workspaceId: principal.workspaceId,
      task: { id: task.id, title: task.title, dueDate: task.dueDate },
      listName: list.name,
      assigneeIds: [...added],
      assignedBy,
      eventId: event.ids[0]!,
    });
  };
}

/** Stores `task.comment` in the transaction that adds the comment. */
export async function recordTaskComment(tx: Prisma.TransactionClient, principal: Principal, task: Task, comment: TaskComment): Promise<AfterTaskCommit> {
  const author = { userId: principal.userId, name: principal.userName };
  const event = await emitEventsInTransaction(tx, principal.workspaceId, "task.comment", [
    {
      data: {
        task: { taskId: task.id, title: task.title, url: task.url },
        comment: { commentId: comment.id, body: comment.body, createdAt: comment.createdAt },
        author,
      },
    },
  ]);
  return async () => {
    await event.afterCommit();
    await notifyMentions({
      workspaceId: principal.workspaceId,
      author,
      body: comment.body,
      on: `the task "${task.title}"`,
      path: `/dashboard/tasks?task=${encodeURIComponent(task.id)}`,
      dedupeKey: comment.id,
    });
  };
}
