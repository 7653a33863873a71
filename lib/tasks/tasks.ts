import type { Principal } from "@/lib/auth/principal";
import { roleAllows } from "@/lib/auth/roles";
import { getConfig } from "@/lib/services";
import { isCreativeVisible } from "@/lib/creatives/list-creatives";
import { getDb } from "@/lib/db/client";
import { badRequest, conflict, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import { fromDateString, toDateString } from "./local-time";
import { recordTaskAssigned } from "./task-events";
import { TASK_COMPLETE_PERMISSION, type Task, type TaskLinkKind, type TaskList, type TaskStatus } from "./task-schema";

export interface TaskLinkInput {
  kind: TaskLinkKind;
  id: string;
}

export interface People {
  get(userId: string): { userId: string; name: string; email: string } | undefined;
}

const TASK_INCLUDE = { assignees: true, links: true, _count: { select: { comments: true } } } satisfies Prisma.TaskInclude;
type TaskRow = Prisma.TaskGetPayload<{ include: typeof TASK_INCLUDE }>;

/** Opens the task in the dashboard. */
export function taskUrl(taskId: string): string {
  return `${getConfig().publicBaseUrl}/dashboard/tasks?task=${encodeURIComponent(taskId)}`;
}

/** Names and emails of users, for showing assignees and authors. */
export async function loadPeople(userIds: Iterable<string>): Promise<Map<string, { userId: string; name: string; email: string }>> {
  const ids = [...new Set(userIds)];
  const users = ids.length ? await getDb().user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } }) : [];
  return new Map(users.map((u) => [u.id, { userId: u.id, name: u.name, email: u.email }]));
}

function toTask(row: TaskRow, people: People): Task {
  return {
    id: row.id,
    listId: row.listId,
    title: row.title,
    description: row.description,
    status: row.status as TaskStatus,
    dueDate: row.dueDate ? toDateString(row.dueDate) : null,
    assignees: row.assignees
      .sort((a, b) => a.assignedAt.getTime() - b.assignedAt.getTime())
      .map((a) => people.get(a.userId) ?? { userId: a.userId, name: "(former member)", email: "" }),
    links: row.links.map((l) => ({ kind: l.kind as TaskLinkKind, id: l.targetId })),
    commentCount: row._count.comments,
    createdBy: row.createdById,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    url: taskUrl(row.id),
  };
}

async function toTasks(rows: TaskRow[]): Promise<Task[]> {
  const people = await loadPeople(rows.flatMap((r) => r.assignees.map((a) => a.userId)));
  return rows.map((row) => toTask(row, people));
}

async function requireList(principal: Principal, listId: string): Promise<{ id: string; name: string }> {
  const list = await getDb().taskList.findFirst({ where: { id: listId, workspaceId: principal.workspaceId }, select: { id: true, name: true } });
  if (!list) throw notFound("Task list");
  return list;
}

async function requireTaskRow(principal: Principal, id: string): Promise<TaskRow> {
  const row = await getDb().task.findFirst({ where: { id, workspaceId: principal.workspaceId }, include: TASK_INCLUDE });
  if (!row) throw notFound("Task");
  return row;
}

/**
 * Assignees must be members of the workspace whose role can complete a task (`tasks.write`): a viewer
 * assigned a task could never mark it done. Every refused id is named. Only the people being added are
 * checked: someone already on the task (assigned before a demotion to viewer) may stay in the set, so the
 * dashboard, which sends the whole set, can still add or take off others.
 */
async function requireMembers(principal: Principal, userIds: string[], alreadyAssigned: string[] = []): Promise<string[]> {
  const unique = [...new Set(userIds)];
  const kept = new Set(alreadyAssigned);
  const added = unique.filter((id) => !kept.has(id));
  if (!added.length) return unique;
  const members = await getDb().membership.findMany({
    where: { workspaceId: principal.workspaceId, userId: { in: added } },
    select: { userId: true, role: true },
  });
  const known = new Map(members.map((m) => [m.userId, m.role]));
  const strangers = added.filter((id) => !known.has(id));
  if (strangers.length) throw badRequest(`assigneeIds: not members of this workspace: ${strangers.join(", ")}`);
  const cannot = added.filter((id) => !roleAllows(known.get(id)!, TASK_COMPLETE_PERMISSION));
  if (cannot.length) throw badRequest(`assigneeIds: their role cannot complete tasks (viewers read only): ${cannot.join(", ")}`);
  return unique;
}

/** Links must name a creative the caller can see, or an ad (its id, ad_...) of the workspace; others are refused. */
async function requireLinks(principal: Principal, links: TaskLinkInput[]): Promise<TaskLinkInput[]> {
  const unique = [...new Map(links.map((l) => [`${l.kind}:${l.id}`, l])).values()];
  const adIds = unique.filter((l) => l.kind === "ad").map((l) => l.id);
  const knownAds = adIds.length
    ? new Set((await getDb().ad.findMany({ where: { workspaceId: principal.workspaceId, id: { in: adIds } }, select: { id: true } })).map((a) => a.id))
    : new Set<string>();
  for (const link of unique) {
    if (link.kind === "creative" && !(await isCreativeVisible(principal, link.id))) throw badRequest(`links: no creative ${link.id}`);
    if (link.kind === "ad" && !knownAds.has(link.id)) throw badRequest(`links: no ad ${link.id}`);
  }
  return unique;
}

// ---- lists ----

export async function listTaskLists(
  principal: Principal,
  input: { limit: number; cursor?: string },
): Promise<{ lists: TaskList[]; nextCursor: string | null }> {
  const rows = await getDb().taskList.findMany({
    where: { workspaceId: principal.workspaceId, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
    include: { _count: { select: { tasks: true } } },
  });
  const page = toPage(rows, input.limit);
  return {
    lists: page.items.map((l) => ({ id: l.id, name: l.name, taskCount: l._count.tasks, createdAt: l.createdAt.toISOString() })),
    nextCursor: page.nextCursor,
  };
}

export async function createTaskList(principal: Principal, input: { name: string }): Promise<{ list: TaskList }> {
  const list = await getDb().taskList.create({ data: { id: newId("tl"), workspaceId: principal.workspaceId, name: input.name } });
  return { list: { id: list.id, name: list.name, taskCount: 0, createdAt: list.createdAt.toISOString() } };
}

export async function renameTaskList(principal: Principal, input: { id: string; name: string }): Promise<{ list: TaskList }> {
  await requireList(principal, input.id);
  const list = await getDb().taskList.update({ where: { id: input.id }, data: { name: input.name }, include: { _count: { select: { tasks: true } } } });
  return { list: { id: list.id, name: list.name, taskCount: list._count.tasks, createdAt: list.createdAt.toISOString() } };
}

/** Only empty lists can be deleted: tasks are moved or deleted first, so nothing is lost by accident. */
export async function deleteTaskList(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  await requireList(principal, input.id);
  const { count } = await getDb().taskList.deleteMany({ where: { id: input.id, workspaceId: principal.workspaceId, tasks: { none: {} } } });
  if (!count) throw conflict("The list still holds tasks; move or delete them first");
  return { ok: true };
}

// ---- tasks ----

export interface CreateTaskInput {
  listId: string;
  title: string;
  description?: string | null;
  status?: TaskStatus;
  dueDate?: string | null;
  assigneeIds?: string[];
  links?: TaskLinkInput[];
}

export async function createTask(principal: Principal, input: CreateTaskInput): Promise<{ task: Task }> {
  const list = await requireList(principal, input.listId);
  const assigneeIds = await requireMembers(principal, input.assigneeIds ?? []);
  const links = await requireLinks(principal, input.links ?? []);
  // Their names and emails before the transaction: the task and its event are made inside it.
  const people = await loadPeople(assigneeIds);
  const { task, afterCommit } = await getDb().$transaction(async (tx) => {
    const row = await tx.task.create({
      data: {
        id: newId("task"),
        workspaceId: principal.workspaceId,
        listId: list.id,
        title: input.title,
        description: input.description ?? null,
        status: input.status ?? "todo",
        dueDate: input.dueDate ? fromDateString(input.dueDate) : null,
        createdById: principal.userId,
        assignees: { create: assigneeIds.map((userId) => ({ userId, assignedById: principal.userId })) },
        links: { create: links.map((l) => ({ kind: l.kind, targetId: l.id })) },
      },
      include: TASK_INCLUDE,
    });
    const task = toTask(row, people);
    return { task, afterCommit: assigneeIds.length ? await recordTaskAssigned(tx, principal, task, list, assigneeIds) : null };
  });
  await afterCommit?.();
  return { task };
}

export async function getTask(principal: Principal, input: { id: string }): Promise<{ task: Task }> {
  const [task] = await toTasks([await requireTaskRow(principal, input.id)]);
  return { task: task! };
}

export interface ListTasksInput {
  limit: number;
  cursor?: string;
  listId?: string;
  status?: TaskStatus[];
  assigneeId?: string;
  /** Only tasks assigned to the caller. */
  mine?: boolean;
  dueFrom?: string;
  dueTo?: string;
}

/** Tasks, newest first, filtered by list, status, assignee and due-date range. */
export async function listTasks(principal: Principal, input: ListTasksInput): Promise<{ tasks: Task[]; nextCursor: string | null }> {
  const assignee = input.mine ? principal.userId : input.assigneeId;
  const where: Prisma.TaskWhereInput = {
    workspaceId: principal.workspaceId,
    ...(input.listId ? { listId: input.listId } : {}),
    ...(input.status?.length ? { status: { in: input.status } } : {}),
    ...(assignee ? { assignees: { some: { userId: assignee } } } : {}),
    ...(input.dueFrom || input.dueTo
      ? { dueDate: { ...(input.dueFrom ? { gte: fromDateString(input.dueFrom) } : {}), ...(input.dueTo ? { lte: fromDateString(input.dueTo) } : {}) } }
      : {}),
    ...afterCursor(input.cursor),
  };
  const rows = await getDb().task.findMany({ where, orderBy: NEWEST_FIRST, take: input.limit + 1, include: TASK_INCLUDE });
  const page = toPage(rows, input.limit);
  return { tasks: await toTasks(page.items), nextCursor: page.nextCursor };
}

export interface UpdateTaskInput extends Partial<Omit<CreateTaskInput, "listId">> {
  id: string;
  listId?: string;
}

/** Changes fields given; `assigneeIds` and `links` replace the sets. Newly assigned people get `task.assigned`. */
export async function updateTask(principal: Principal, input: UpdateTaskInput): Promise<{ task: Task }> {
  const current = await requireTaskRow(principal, input.id);
  const list = await requireList(principal, input.listId ?? current.listId);
  const assignedBefore = current.assignees.map((a) => a.userId);
  const assigneeIds = input.assigneeIds ? await requireMembers(principal, input.assigneeIds, assignedBefore) : null;
  const links = input.links ? await requireLinks(principal, input.links) : null;
  const people = await loadPeople([...current.assignees.map((a) => a.userId), ...(assigneeIds ?? [])]);
  const { task, afterCommit } = await getDb().$transaction(async (tx) => {
    // Updates of one task take turns, and who is newly assigned is read after the lock: two updates adding the
    // same person at once assign (and announce) them once, where both used to insert and the second failed.
    await tx.$queryRaw`SELECT id FROM tasks WHERE id = ${current.id} FOR UPDATE`;
    const before = new Set((await tx.taskAssignee.findMany({ where: { taskId: current.id }, select: { userId: true } })).map((a) => a.userId));
    const added = assigneeIds ? assigneeIds.filter((id) => !before.has(id)) : [];
    // Kept people were not checked again; one another update took off meanwhile would be added unchecked.
    if (added.some((id) => assignedBefore.includes(id))) throw conflict("The task's assignees changed meanwhile; read the task and try again");
    if (assigneeIds) {
      await tx.taskAssignee.deleteMany({ where: { taskId: current.id, userId: { notIn: assigneeIds } } });
      if (added.length) await tx.taskAssignee.createMany({ data: added.map((userId) => ({ taskId: current.id, userId, assignedById: principal.userId })) });
    }
    if (links) {
      await tx.taskLink.deleteMany({ where: { taskId: current.id } });
      if (links.length) await tx.taskLink.createMany({ data: links.map((l) => ({ taskId: current.id, kind: l.kind, targetId: l.id })) });
    }
    const row = await tx.task.update({
      where: { id: current.id },
      data: {
        listId: list.id,
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.dueDate !== undefined ? { dueDate: input.dueDate ? fromDateString(input.dueDate) : null } : {}),
      },
      include: TASK_INCLUDE,
    });
    const task = toTask(row, people);
    return { task, afterCommit: added.length ? await recordTaskAssigned(tx, principal, task, list, added) : null };
  });
  await afterCommit?.();
  return { task };
}

export async function deleteTask(principal: Principal, input: { id: string }): Promise<{ ok: true }> {
  const { count } = await getDb().task.deleteMany({ where: { id: input.id, workspaceId: principal.workspaceId } });
  if (!count) throw notFound("Task");
  return { ok: true };
}

/** The task row's visibility check, for modules that hang things off tasks (comments). */
export async function requireTask(principal: Principal, id: string): Promise<Task> {
  return (await getTask(principal, { id })).task;
}
