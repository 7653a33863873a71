import { z } from "zod";
import type { Permission } from "@/lib/auth/roles";

export const TASK_STATUSES = ["todo", "in_progress", "done"] as const;
export const TASK_LINK_KINDS = ["creative", "ad"] as const;
/** What a member needs to complete (or otherwise change) a task, hence who may be assigned one. */
export const TASK_COMPLETE_PERMISSION: Permission = "tasks.write";
export const TASK_LIMITS = { title: 200, description: 5000, comment: 5000, listName: 100, assignees: 20, links: 20 } as const;

export const TaskListSchema = z.object({ id: z.string(), name: z.string(), taskCount: z.number().int(), createdAt: z.string() }).meta({ id: "TaskList" });

export const TaskPersonSchema = z.object({ userId: z.string(), name: z.string(), email: z.string() });

export const TaskSchema = z
  .object({
    id: z.string(),
    listId: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    status: z.enum(TASK_STATUSES),
    dueDate: z.string().nullable().describe("YYYY-MM-DD, or null"),
    assignees: z.array(TaskPersonSchema),
    links: z.array(z.object({ kind: z.enum(TASK_LINK_KINDS), id: z.string() })),
    commentCount: z.number().int(),
    createdBy: z.string().describe("User id of the creator"),
    createdAt: z.string(),
    updatedAt: z.string(),
    url: z.string().describe("Opens the task in the dashboard"),
  })
  .meta({ id: "Task" });

export const TaskCommentSchema = z
  .object({ id: z.string(), taskId: z.string(), author: TaskPersonSchema.omit({ email: true }), body: z.string(), createdAt: z.string() })
  .meta({ id: "TaskComment" });

export type TaskList = z.infer<typeof TaskListSchema>;
export type Task = z.infer<typeof TaskSchema>;
export type TaskComment = z.infer<typeof TaskCommentSchema>;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TaskLinkKind = (typeof TASK_LINK_KINDS)[number];
