import type { Principal } from "@/lib/auth/principal";
import { emitEvent } from "@/lib/events/emit";
import { notifyMentions, notifyTaskAssigned } from "@/lib/notifications/sources";
import type { Task, TaskComment } from "./task-schema";

/** `task.assigned` for the people newly assigned (after the change committed). */
export async function emitTaskAssigned(principal: Principal, task: Task, list: { id: string; name: string }, newAssigneeIds: string[]): Promise<void> {
  const added = new Set(newAssigneeIds);
  const event = await emitEvent({
    workspaceId: principal.workspaceId,
    type: "task.assigned",
    data: {
      task: { taskId: task.id, title: task.title, url: task.url, dueDate: task.dueDate },
      list: { listId: list.id, name: list.name },
      assignees: task.assignees.filter((a) => added.has(a.userId)).map(({ userId, name, email }) => ({ userId, name, email })),
      assignedBy: { userId: principal.userId, name: principal.userName },
    },
  });
  await notifyTaskAssigned({
    workspaceId: principal.workspaceId,
    task: { id: task.id, title: task.title, dueDate: task.dueDate },
    listName: list.name,
    assigneeIds: [...added],
    assignedBy: { userId: principal.userId, name: principal.userName },
    eventId: event.id,
  });
}

export async function emitTaskComment(principal: Principal, task: Task, comment: TaskComment): Promise<void> {
  await emitEvent({
    workspaceId: principal.workspaceId,
    type: "task.comment",
    data: {
      task: { taskId: task.id, title: task.title, url: task.url },
      comment: { commentId: comment.id, body: comment.body, createdAt: comment.createdAt },
      author: { userId: principal.userId, name: principal.userName },
    },
  });
  await notifyMentions({
    workspaceId: principal.workspaceId,
    author: { userId: principal.userId, name: principal.userName },
    body: comment.body,
    on: `the task "${task.title}"`,
    path: `/dashboard/tasks?task=${encodeURIComponent(task.id)}`,
    dedupeKey: comment.id,
  });
}
