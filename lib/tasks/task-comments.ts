import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import { recordTaskComment } from "./task-events";
import type { TaskComment } from "./task-schema";
import { loadPeople, requireTask } from "./tasks";

export async function addTaskComment(principal: Principal, input: { taskId: string; body: string }): Promise<{ comment: TaskComment }> {
  const task = await requireTask(principal, input.taskId);
  const { comment, afterCommit } = await getDb().$transaction(async (tx) => {
    const row = await tx.taskComment.create({
      data: { id: newId("tcm"), taskId: task.id, workspaceId: principal.workspaceId, authorId: principal.userId, body: input.body },
    });
    const comment: TaskComment = {
      id: row.id,
      taskId: task.id,
      author: { userId: principal.userId, name: principal.userName },
      body: row.body,
      createdAt: row.createdAt.toISOString(),
    };
    return { comment, afterCommit: await recordTaskComment(tx, principal, task, comment) };
  });
  await afterCommit();
  return { comment };
}

export async function listTaskComments(
  principal: Principal,
  input: { taskId: string; limit: number; cursor?: string },
): Promise<{ comments: TaskComment[]; nextCursor: string | null }> {
  const task = await requireTask(principal, input.taskId);
  const rows = await getDb().taskComment.findMany({
    where: { taskId: task.id, workspaceId: principal.workspaceId, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  const people = await loadPeople(page.items.map((r) => r.authorId));
  return {
    comments: page.items.map((r) => ({
      id: r.id,
      taskId: r.taskId,
      author: { userId: r.authorId, name: people.get(r.authorId)?.name ?? "(former member)" },
      body: r.body,
      createdAt: r.createdAt.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}
