"use client";
import { useMemberClock } from "@/components/dashboard/time-zone";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import { ApiError } from "@/components/dashboard/api";
import { formatRelative } from "@/components/dashboard/format";
import { callTool, type ToolInput, type ToolOutput } from "@/components/dashboard/tool-call";
import { Button } from "@/components/ui/button";
import { Field, Select, SelectField, TextArea } from "@/components/ui/field";
import { Alert, Badge, Card, EmptyState } from "@/components/ui/misc";
import { LinkSelect, parseLinkValue, TaskLinksEditor } from "./task-links";

type Task = ToolOutput<"get_task">["task"];
type TaskList = ToolOutput<"list_task_lists">["lists"][number];
type TaskStatus = Task["status"];
type Member = { userId: string; name: string; email: string };
type Filters = { listId: string; assignee: string; status: "" | TaskStatus; due: "" | "overdue" | "week" };

const STATUS_LABEL: Record<TaskStatus, string> = { todo: "To do", in_progress: "In progress", done: "Done" };
const STATUS_TONE = { todo: "slate", in_progress: "amber", done: "green" } as const;
const STATUSES: TaskStatus[] = ["todo", "in_progress", "done"];

/** A calendar date in the viewer's own time zone, `days` from today. */
function localDate(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return d.toLocaleDateString("en-CA");
}

function message(e: unknown): string {
  return e instanceof ApiError ? e.message : "That did not work. Please try again.";
}

function dueLabel(dueDate: string | null, status: TaskStatus): { text: string; tone: "slate" | "rose" | "amber" } | null {
  if (!dueDate) return null;
  if (status !== "done" && dueDate < localDate()) return { text: `Overdue: ${dueDate}`, tone: "rose" };
  if (dueDate === localDate()) return { text: "Due today", tone: "amber" };
  if (dueDate === localDate(1)) return { text: "Due tomorrow", tone: "amber" };
  return { text: `Due ${dueDate}`, tone: "slate" };
}

function toArgs(f: Filters, me: string): ToolInput<"list_tasks"> {
  return {
    ...(f.listId ? { listId: f.listId } : {}),
    ...(f.assignee === "me" ? { assigneeId: me } : f.assignee ? { assigneeId: f.assignee } : {}),
    ...(f.status ? { status: [f.status] } : {}),
    ...(f.due === "overdue" ? { dueTo: localDate(-1), status: ["todo", "in_progress"] } : {}),
    ...(f.due === "week" ? { dueFrom: localDate(), dueTo: localDate(7) } : {}),
  };
}

/** `members` fill the assignee filter; `assignable` (roles that can complete a task) are who a task may be assigned to. */
export function TasksWorkspace({ members, assignable, me, canWrite }: { members: Member[]; assignable: Member[]; me: string; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const params = useMemo(() => new URLSearchParams(search?.toString() ?? ""), [search]);
  const openTaskId = params.get("task");
  const [view, setView] = useState<"list" | "board">(params.get("view") === "board" ? "board" : "list");
  const [filters, setFilters] = useState<Filters>({ listId: "", assignee: params.get("mine") ? "me" : "", status: "", due: "" });
  const [problem, setProblem] = useState<string | null>(null);

  const lists = useQuery({ queryKey: ["task-lists"], queryFn: () => callTool("list_task_lists", { limit: 200 }) });
  const args = useMemo(() => toArgs(filters, me), [filters, me]);
  const tasks = useInfiniteQuery({
    queryKey: ["tasks", args],
    queryFn: ({ pageParam }) => callTool("list_tasks", { ...args, limit: 100, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const all = tasks.data?.pages.flatMap((p) => p.tasks) ?? [];
  const refresh = () => queryClient.invalidateQueries({ predicate: (q) => ["tasks", "task-lists", "task"].includes(String(q.queryKey[0])) });

  const open = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set("task", id);
    else next.delete("task");
    router.replace(`${pathname}${next.size ? `?${next}` : ""}`, { scroll: false });
  };
  const setStatus = useMutation({
    mutationFn: ({ id, status }: { id: string; status: TaskStatus }) => callTool("update_task", { id, status }),
    onSuccess: refresh,
    onError: (e) => setProblem(message(e)),
  });
  const listName = (id: string) => lists.data?.lists.find((l) => l.id === id)?.name ?? "";

  return (
    <div className="space-y-6">
      {problem && <Alert>{problem}</Alert>}
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          id="filter-list"
          label="List"
          className="w-full sm:w-48"
          value={filters.listId}
          onChange={(e) => setFilters({ ...filters, listId: e.target.value })}
        >
          <option value="">All lists</option>
          {lists.data?.lists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name} ({l.taskCount})
            </option>
          ))}
        </SelectField>
        <SelectField
          id="filter-assignee"
          label="Assignee"
          className="w-full sm:w-44"
          value={filters.assignee}
          onChange={(e) => setFilters({ ...filters, assignee: e.target.value })}
        >
          <option value="">Anyone</option>
          <option value="me">My tasks</option>
          {members
            .filter((m) => m.userId !== me)
            .map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.name || m.email}
              </option>
            ))}
        </SelectField>
        {view === "list" && (
          <SelectField
            id="filter-status"
            label="Status"
            className="w-full sm:w-40"
            value={filters.status}
            onChange={(e) => setFilters({ ...filters, status: e.target.value as Filters["status"] })}
          >
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </SelectField>
        )}
        <SelectField
          id="filter-due"
          label="Due"
          className="w-full sm:w-40"
          value={filters.due}
          onChange={(e) => setFilters({ ...filters, due: e.target.value as Filters["due"] })}
        >
          <option value="">Any time</option>
          <option value="overdue">Overdue</option>
          <option value="week">Next 7 days</option>
        </SelectField>
        <div role="group" aria-label="View" className="flex gap-1">
          <Button variant={view === "list" ? "primary" : "secondary"} aria-pressed={view === "list"} onClick={() => setView("list")}>
            List
          </Button>
          <Button variant={view === "board" ? "primary" : "secondary"} aria-pressed={view === "board"} onClick={() => setView("board")}>
            Board
          </Button>
        </div>
      </div>

      {canWrite ? (
        <NewTask lists={lists.data?.lists ?? []} members={assignable} defaultListId={filters.listId} onDone={refresh} onError={setProblem} />
      ) : (
        <p className="text-sm text-slate-600">Your role can read tasks but not change them.</p>
      )}

      {openTaskId && (
        <TaskDetail
          id={openTaskId}
          assignable={assignable}
          lists={lists.data?.lists ?? []}
          canWrite={canWrite}
          onClose={() => open(null)}
          onChanged={refresh}
        />
      )}

      {tasks.isLoading ? (
        <p className="text-sm text-slate-600">Loading tasks…</p>
      ) : tasks.isError ? (
        <Alert>{message(tasks.error)}</Alert>
      ) : all.length === 0 ? (
        <EmptyState title="No tasks here">
          {filters.assignee || filters.status || filters.due || filters.listId ? "Nothing matches these filters." : "Create a list, then add the first task."}
        </EmptyState>
      ) : view === "list" ? (
        <ul className="space-y-2" aria-label="Tasks">
          {all.map((t) => (
            <li key={t.id}>
              <TaskCard task={t} listName={listName(t.listId)} onOpen={() => open(t.id)} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="grid gap-4 md:grid-cols-3">
          {STATUSES.map((status) => (
            <section key={status} aria-labelledby={`col-${status}`} className="rounded-lg bg-slate-100 p-3">
              <h2 id={`col-${status}`} className="mb-2 text-sm font-semibold text-slate-800">
                {STATUS_LABEL[status]} <span className="font-normal text-slate-500">({all.filter((t) => t.status === status).length})</span>
              </h2>
              <ul className="space-y-2">
                {all
                  .filter((t) => t.status === status)
                  .map((t) => (
                    <li key={t.id}>
                      <TaskCard task={t} listName={listName(t.listId)} onOpen={() => open(t.id)}>
                        {canWrite && (
                          <>
                            <label htmlFor={`move-${t.id}`} className="sr-only">
                              Move {t.title}
                            </label>
                            <Select
                              id={`move-${t.id}`}
                              className="mt-2 h-8 py-0 text-xs"
                              value={t.status}
                              onChange={(e) => setStatus.mutate({ id: t.id, status: e.target.value as TaskStatus })}
                            >
                              {STATUSES.map((s) => (
                                <option key={s} value={s}>
                                  {STATUS_LABEL[s]}
                                </option>
                              ))}
                            </Select>
                          </>
                        )}
                      </TaskCard>
                    </li>
                  ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      {tasks.hasNextPage && (
        <Button variant="secondary" onClick={() => tasks.fetchNextPage()} disabled={tasks.isFetchingNextPage}>
          {tasks.isFetchingNextPage ? "Loading…" : "Load more tasks"}
        </Button>
      )}
    </div>
  );
}

function TaskCard({ task, listName, onOpen, children }: { task: Task; listName: string; onOpen: () => void; children?: React.ReactNode }) {
  const due = dueLabel(task.dueDate, task.status);
  return (
    <Card className="p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <button
          type="button"
          onClick={onOpen}
          className="min-w-0 text-left text-sm font-medium text-slate-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <span className="break-words">{task.title}</span>
        </button>
        <Badge tone={STATUS_TONE[task.status]}>{STATUS_LABEL[task.status]}</Badge>
      </div>
      <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
        {listName && <span>{listName}</span>}
        {due && <span className={due.tone === "rose" ? "font-medium text-rose-700" : due.tone === "amber" ? "text-amber-800" : ""}>{due.text}</span>}
        <span>{task.assignees.length ? task.assignees.map((a) => a.name || a.email).join(", ") : "Unassigned"}</span>
        {task.commentCount > 0 && (
          <span>
            {task.commentCount} comment{task.commentCount === 1 ? "" : "s"}
          </span>
        )}
      </p>
      {children}
    </Card>
  );
}

function NewTask({
  lists,
  members,
  defaultListId,
  onDone,
  onError,
}: {
  lists: TaskList[];
  members: Member[];
  defaultListId: string;
  onDone: () => void;
  onError: (m: string | null) => void;
}) {
  const [listName, setListName] = useState("");
  const createList = useMutation({
    mutationFn: (name: string) => callTool("create_task_list", { name }),
    onSuccess: () => (setListName(""), onError(null), onDone()),
    onError: (e) => onError(message(e)),
  });
  const createTask = useMutation({
    mutationFn: (args: ToolInput<"create_task">) => callTool("create_task", args),
    onSuccess: () => (onError(null), onDone()),
    onError: (e) => onError(message(e)),
  });
  const submitTask = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // React clears e.currentTarget once the handler returns: keep the form to reset it after the call.
    const formElement = e.currentTarget;
    const form = new FormData(formElement);
    const link = parseLinkValue(String(form.get("link") ?? ""));
    const dueDate = String(form.get("dueDate") ?? "");
    const description = String(form.get("description") ?? "").trim();
    createTask.mutate(
      {
        listId: String(form.get("listId")),
        title: String(form.get("title") ?? ""),
        ...(dueDate ? { dueDate } : {}),
        ...(description ? { description } : {}),
        assigneeIds: form.getAll("assigneeIds").map(String),
        ...(link ? { links: [link] } : {}),
      },
      { onSuccess: () => formElement.reset() },
    );
  };
  return (
    <Card className="p-4">
      {lists.length > 0 && (
        <form onSubmit={submitTask} className="grid gap-3 md:grid-cols-2" aria-label="New task">
          <Field id="new-task-title" name="title" label="New task" placeholder="What needs doing?" required maxLength={200} />
          <SelectField id="new-task-list" label="List" name="listId" defaultValue={defaultListId || lists[0]?.id} key={defaultListId}>
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
          <Field id="new-task-due" name="dueDate" type="date" label="Due date" />
          <div className="space-y-1">
            <label htmlFor="new-task-link" className="block text-sm font-medium text-slate-800">
              Link to
            </label>
            <LinkSelect id="new-task-link" name="link" emptyLabel="No creative or ad" />
          </div>
          <fieldset className="space-y-1">
            <legend className="text-sm font-medium text-slate-800">Assignees</legend>
            <p className="text-xs text-slate-600">Viewers are not listed: their role cannot complete tasks.</p>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {members.map((m) => (
                <label key={m.userId} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="assigneeIds" value={m.userId} className="size-4" /> {m.name || m.email}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="space-y-1 md:col-span-2">
            <label htmlFor="new-task-description" className="block text-sm font-medium text-slate-800">
              Description
            </label>
            <TextArea id="new-task-description" name="description" rows={2} maxLength={5000} />
          </div>
          <div>
            <Button type="submit" disabled={createTask.isPending}>
              {createTask.isPending ? "Adding…" : "Add task"}
            </Button>
          </div>
        </form>
      )}
      <form
        className={`flex flex-wrap items-end gap-2 ${lists.length ? "mt-4 border-t border-slate-200 pt-4" : ""}`}
        onSubmit={(e) => (e.preventDefault(), createList.mutate(listName))}
        aria-label="New list"
      >
        <div className="w-full sm:w-64">
          <Field
            id="new-list-name"
            label={lists.length ? "New list" : "Create your first list"}
            value={listName}
            onChange={(e) => setListName(e.target.value)}
            required
            maxLength={100}
          />
        </div>
        <Button type="submit" variant="secondary" disabled={createList.isPending}>
          Create list
        </Button>
      </form>
    </Card>
  );
}

function TaskDetail({
  id,
  assignable,
  lists,
  canWrite,
  onClose,
  onChanged,
}: {
  id: string;
  assignable: Member[];
  lists: TaskList[];
  canWrite: boolean;
  onClose: () => void;
  onChanged: () => void;
}) {
  const clock = useMemberClock();
  const queryClient = useQueryClient();
  const task = useQuery({ queryKey: ["task", id], queryFn: () => callTool("get_task", { id }), retry: false });
  const comments = useQuery({ queryKey: ["task", id, "comments"], queryFn: () => callTool("list_task_comments", { taskId: id, limit: 200 }), retry: false });
  const [body, setBody] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (args: Omit<ToolInput<"update_task">, "id">) => callTool("update_task", { id, ...args }),
    onSuccess: () => (setProblem(null), onChanged()),
    onError: (e) => setProblem(message(e)),
  });
  const comment = useMutation({
    mutationFn: () => callTool("add_task_comment", { taskId: id, body }),
    onSuccess: () => (setBody(""), setProblem(null), queryClient.invalidateQueries({ queryKey: ["task", id] }), onChanged()),
    onError: (e) => setProblem(message(e)),
  });
  if (task.isError)
    return (
      <Alert>
        This task does not exist or was deleted.{" "}
        <button type="button" className="underline" onClick={onClose}>
          Close
        </button>
      </Alert>
    );
  if (!task.data) return <p className="text-sm text-slate-600">Opening the task…</p>;
  const t = task.data.task;
  const assigned = new Set(t.assignees.map((a) => a.userId));
  // Whoever is on the task stays listed (assigned before their role changed, or before they left), so they can be taken off.
  const choices = [...assignable, ...t.assignees.filter((p) => !assignable.some((a) => a.userId === p.userId))];
  return (
    <Card className="p-4">
      <section aria-labelledby="task-detail-heading" className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id="task-detail-heading" className="text-lg font-semibold text-slate-900 break-words">
            {t.title}
          </h2>
          <Button variant="ghost" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
        {t.description && <p className="whitespace-pre-wrap text-sm text-slate-700">{t.description}</p>}
        {problem && <Alert>{problem}</Alert>}
        <div className="grid gap-3 sm:grid-cols-3">
          <SelectField
            id="detail-status"
            label="Status"
            value={t.status}
            disabled={!canWrite}
            onChange={(e) => save.mutate({ status: e.target.value as TaskStatus })}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </SelectField>
          <Field
            id="detail-due"
            type="date"
            label="Due date"
            value={t.dueDate ?? ""}
            disabled={!canWrite}
            onChange={(e) => save.mutate({ dueDate: e.target.value || null })}
          />
          <SelectField id="detail-list" label="List" value={t.listId} disabled={!canWrite} onChange={(e) => save.mutate({ listId: e.target.value })}>
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Assignees</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {choices.map((m) => (
              <label key={m.userId} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={assigned.has(m.userId)}
                  disabled={!canWrite || save.isPending}
                  onChange={(e) => save.mutate({ assigneeIds: e.target.checked ? [...assigned, m.userId] : [...assigned].filter((u) => u !== m.userId) })}
                />
                {m.name || m.email}
              </label>
            ))}
          </div>
        </fieldset>
        <TaskLinksEditor links={t.links} canWrite={canWrite} busy={save.isPending} onChange={(links) => save.mutate({ links })} />
        <section aria-labelledby="task-comments-heading">
          <h3 id="task-comments-heading" className="text-sm font-semibold text-slate-900">
            Comments
          </h3>
          <ul className="mt-2 space-y-2">
            {comments.data?.comments.map((c) => (
              <li key={c.id} className="rounded-md bg-slate-50 px-3 py-2 text-sm">
                <p className="text-xs text-slate-500">
                  {c.author.name} · {formatRelative(c.createdAt, Date.now(), clock)}
                </p>
                <p className="whitespace-pre-wrap break-words text-slate-800">{c.body}</p>
              </li>
            ))}
            {comments.data?.comments.length === 0 && <li className="text-sm text-slate-500">No comments yet.</li>}
          </ul>
          {canWrite && (
            <form className="mt-3 space-y-2" onSubmit={(e) => (e.preventDefault(), comment.mutate())}>
              <label htmlFor="task-comment" className="block text-sm font-medium text-slate-800">
                Add a comment
              </label>
              <TextArea id="task-comment" rows={2} value={body} onChange={(e) => setBody(e.target.value)} required maxLength={5000} />
              <Button type="submit" size="sm" disabled={comment.isPending || !body.trim()}>
                Comment
              </Button>
            </form>
          )}
        </section>
      </section>
    </Card>
  );
}
