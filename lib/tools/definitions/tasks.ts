import { z } from "zod";
import { isoDate } from "@/lib/iso-time";
import { addTaskComment, listTaskComments } from "@/lib/tasks/task-comments";
import { TASK_LIMITS, TASK_LINK_KINDS, TASK_STATUSES, TaskCommentSchema, TaskListSchema, TaskSchema } from "@/lib/tasks/task-schema";
import { createTask, createTaskList, deleteTask, deleteTaskList, getTask, listTaskLists, listTasks, renameTaskList, updateTask } from "@/lib/tasks/tasks";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const date = isoDate().describe("A calendar date, YYYY-MM-DD");
const listName = z.string().trim().min(1).max(TASK_LIMITS.listName).describe("List name");
const title = z.string().trim().min(1).max(TASK_LIMITS.title).describe("Task title");
const description = z.string().max(TASK_LIMITS.description).nullable().describe("Longer description; null clears it");
const status = z.enum(TASK_STATUSES).describe("todo, in_progress or done");
const assigneeIds = z
  .array(idArg("User"))
  .max(TASK_LIMITS.assignees)
  .describe("Members of the workspace to assign (user ids), each with a role that can complete tasks (not viewers); replaces the set");
const links = z
  .array(
    z.strictObject({
      kind: z.enum(TASK_LINK_KINDS),
      id: idArg("Creative or ad").describe("The creative's id (cre_...) or the ad's id (ad_...), of this workspace"),
    }),
  )
  .max(TASK_LIMITS.links)
  .describe("Library creatives or ads the task is about; replaces the set");
const ListRef = z.object({ list: TaskListSchema });
const TaskRef = z.object({ task: TaskSchema });

export const taskTools = [
  defineTool({
    name: "list_task_lists",
    title: "List task lists",
    description: "The workspace's task lists with their task counts, newest first. Paginated: pass nextCursor back as cursor.",
    category: "tasks",
    capability: "tasks.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ ...pageArgs({ defaultLimit: 100, maxLimit: 200 }) }),
    output: z.object({ lists: z.array(TaskListSchema), nextCursor: z.string().nullable() }),
    handler: listTaskLists,
  }),
  defineTool({
    name: "create_task_list",
    title: "Create task list",
    description: "Creates a task list.",
    category: "tasks",
    capability: "tasks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ name: listName }),
    output: ListRef,
    handler: createTaskList,
  }),
  defineTool({
    name: "rename_task_list",
    title: "Rename task list",
    description: "Renames a task list.",
    category: "tasks",
    capability: "tasks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: idArg("Task list"), name: listName }),
    output: ListRef,
    handler: renameTaskList,
  }),
  defineTool({
    name: "delete_task_list",
    title: "Delete task list",
    description: "Deletes an empty task list (conflict while it still holds tasks: move or delete them first).",
    category: "tasks",
    capability: "tasks.write",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ id: idArg("Task list") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteTaskList,
  }),
  defineTool({
    name: "list_tasks",
    title: "List tasks",
    description:
      "Tasks newest first, filtered by list, status, assignee (or mine: the caller's) and a due-date range. Paginated: pass nextCursor back as cursor.",
    category: "tasks",
    capability: "tasks.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({
      ...pageArgs({ defaultLimit: 50, maxLimit: 200 }),
      listId: idArg("Task list").optional().describe("Only this list's tasks"),
      status: z.array(status).max(3).optional().describe("Only tasks in these statuses"),
      assigneeId: idArg("User").optional().describe("Only tasks assigned to this member"),
      mine: z.boolean().optional().describe("Only tasks assigned to the caller"),
      dueFrom: date.optional().describe("Only tasks due on or after this date"),
      dueTo: date.optional().describe("Only tasks due on or before this date"),
    }),
    output: z.object({ tasks: z.array(TaskSchema), nextCursor: z.string().nullable() }),
    handler: listTasks,
  }),
  defineTool({
    name: "get_task",
    title: "Get task",
    description: "One task with its assignees, links and comment count.",
    category: "tasks",
    capability: "tasks.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: idArg("Task") }),
    output: TaskRef,
    handler: getTask,
  }),
  defineTool({
    name: "create_task",
    title: "Create task",
    description: "Creates a task in a list, optionally with a due date, assignees (each gets task.assigned) and links to creatives or ads.",
    category: "tasks",
    capability: "tasks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      listId: idArg("Task list"),
      title,
      description: description.optional(),
      status: status.optional().describe("Default todo"),
      dueDate: date.nullable().optional(),
      assigneeIds: assigneeIds.optional(),
      links: links.optional(),
    }),
    output: TaskRef,
    handler: createTask,
  }),
  defineTool({
    name: "update_task",
    title: "Update task",
    description: "Changes a task: fields left out stay; assigneeIds and links replace their sets (people newly assigned get task.assigned); listId moves it.",
    category: "tasks",
    capability: "tasks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      id: idArg("Task"),
      listId: idArg("Task list").optional().describe("Move the task to this list"),
      title: title.optional(),
      description: description.optional(),
      status: status.optional(),
      dueDate: date.nullable().optional().describe("YYYY-MM-DD; null clears it"),
      assigneeIds: assigneeIds.optional(),
      links: links.optional(),
    }),
    output: TaskRef,
    handler: updateTask,
  }),
  defineTool({
    name: "delete_task",
    title: "Delete task",
    description: "Deletes a task with its comments; cannot be undone.",
    category: "tasks",
    capability: "tasks.write",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ id: idArg("Task") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteTask,
  }),
  defineTool({
    name: "list_task_comments",
    title: "List task comments",
    description: "A task's comments, newest first. Paginated: pass nextCursor back as cursor.",
    category: "tasks",
    capability: "tasks.read",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ taskId: idArg("Task"), ...pageArgs({ defaultLimit: 50, maxLimit: 200 }) }),
    output: z.object({ comments: z.array(TaskCommentSchema), nextCursor: z.string().nullable() }),
    handler: listTaskComments,
  }),
  defineTool({
    name: "add_task_comment",
    title: "Comment on task",
    description: "Adds a comment to a task (sends task.comment).",
    category: "tasks",
    capability: "tasks.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ taskId: idArg("Task"), body: z.string().trim().min(1).max(TASK_LIMITS.comment).describe("The comment") }),
    output: z.object({ comment: TaskCommentSchema }),
    handler: addTaskComment,
  }),
];
