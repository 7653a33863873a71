import { getDb } from "@/lib/db/client";
import { mentionedMembers } from "./mentions";
import { recordNotification } from "./record";

/**
 * What the domain tells people about, one function per source, called next to the webhook event it
 * mirrors (after the change committed). Each resolves who it concerns; the fan-out job applies
 * each person's choices and the Slack channel's.
 */

const creativePath = (creativeId: string) => `/dashboard/library/${encodeURIComponent(creativeId)}`;
const quote = (text: string) => (text.length > 500 ? `${text.slice(0, 500)}…` : text);

interface CreativeRef {
  id: string;
  workspaceId: string;
  fileName: string;
}

export async function notifyReviewRequested(input: {
  creative: CreativeRef;
  reviewerIds: string[];
  requestedBy: { userId: string; name: string };
  note?: string | null;
  eventId: string;
}): Promise<void> {
  const { creative } = input;
  await recordNotification({
    workspaceId: creative.workspaceId,
    kind: "review_requested",
    dedupeKey: `review_requested:${input.eventId}`,
    audience: { userIds: input.reviewerIds, exceptUserId: input.requestedBy.userId },
    title: `${input.requestedBy.name} asked you to review ${creative.fileName}`,
    body: [`${input.requestedBy.name} asked for a review of ${creative.fileName}.`, ...(input.note ? [`Note: ${quote(input.note)}`] : [])].join("\n"),
    path: creativePath(creative.id),
  });
}

/** Approved or changes requested: told to those who asked for its review and to its uploader. */
export async function notifyReviewDecision(input: {
  creative: CreativeRef & { createdById?: string | null };
  status: "approved" | "changes_requested";
  actor: { userId: string | null; name: string };
  note?: string | null;
  eventId: string;
}): Promise<void> {
  const { creative } = input;
  const requests = await getDb().reviewRequest.findMany({ where: { creativeId: creative.id }, select: { requestedById: true } });
  const userIds = [...new Set([...requests.map((r) => r.requestedById), ...(creative.createdById ? [creative.createdById] : [])])];
  const approved = input.status === "approved";
  await recordNotification({
    workspaceId: creative.workspaceId,
    kind: approved ? "review_approved" : "changes_requested",
    dedupeKey: `review_decision:${input.eventId}`,
    audience: { userIds, exceptUserId: input.actor.userId },
    title: approved ? `${input.actor.name} approved ${creative.fileName}` : `${input.actor.name} asked for changes to ${creative.fileName}`,
    body: [
      approved ? `${creative.fileName} was approved by ${input.actor.name}.` : `${input.actor.name} asked for changes to ${creative.fileName}.`,
      ...(input.note ? [`Note: ${quote(input.note)}`] : []),
    ].join("\n"),
    path: creativePath(creative.id),
  });
}

/** A comment (on a creative or a task) that mentions members: each mentioned member is told. */
export async function notifyMentions(input: {
  workspaceId: string;
  author: { userId: string | null; name: string };
  body: string;
  /** What the comment is on, e.g. "hero.png" or "the task Brief the agency". */
  on: string;
  path: string;
  dedupeKey: string;
}): Promise<void> {
  const userIds = await mentionedMembers(input.workspaceId, input.body);
  if (!userIds.length) return;
  await recordNotification({
    workspaceId: input.workspaceId,
    kind: "mention",
    dedupeKey: `mention:${input.dedupeKey}`,
    audience: { userIds, exceptUserId: input.author.userId },
    title: `${input.author.name} mentioned you on ${input.on}`,
    body: `${input.author.name} wrote on ${input.on}:\n\n${quote(input.body)}`,
    path: input.path,
  });
}

export async function notifyTaskAssigned(input: {
  workspaceId: string;
  task: { id: string; title: string; dueDate: string | null };
  listName: string;
  assigneeIds: string[];
  assignedBy: { userId: string; name: string };
  eventId: string;
}): Promise<void> {
  await recordNotification({
    workspaceId: input.workspaceId,
    kind: "task_assigned",
    dedupeKey: `task_assigned:${input.eventId}`,
    audience: { userIds: input.assigneeIds, exceptUserId: input.assignedBy.userId },
    title: `${input.assignedBy.name} assigned you: ${input.task.title}`,
    body: [`Task: ${input.task.title}`, `List: ${input.listName}`, `Due: ${input.task.dueDate ?? "no due date"}`].join("\n"),
    path: `/dashboard/tasks?task=${encodeURIComponent(input.task.id)}`,
  });
}

export async function notifyTasksDue(input: {
  workspaceId: string;
  date: string;
  tasks: { taskId: string; title: string; kind: "due_soon" | "overdue"; dueDate: string; assignees: { userId: string; name: string }[] }[];
  eventId: string;
}): Promise<void> {
  const line = (t: (typeof input.tasks)[number]) =>
    `- ${t.title}: ${t.kind === "overdue" ? `overdue (was due ${t.dueDate})` : `due ${t.dueDate}`}${t.assignees.length ? ` (${t.assignees.map((a) => a.name).join(", ")})` : ""}`;
  await recordNotification({
    workspaceId: input.workspaceId,
    kind: "task_due",
    dedupeKey: `task_due:${input.eventId}`,
    audience: { userIds: [...new Set(input.tasks.flatMap((t) => t.assignees.map((a) => a.userId)))] },
    title: `Tasks due: ${input.tasks.length} on ${input.date}`,
    body: [`Tasks due tomorrow or overdue on ${input.date}:`, ...input.tasks.map(line)].join("\n"),
    path: "/dashboard/tasks",
  });
}

export async function notifyRuleTriggered(input: {
  workspaceId: string;
  rule: { name: string; createdById: string };
  action: string;
  matches: { name: string; campaignName: string }[];
  eventId: string;
}): Promise<void> {
  await recordNotification({
    workspaceId: input.workspaceId,
    kind: "rule_triggered",
    dedupeKey: `rule_triggered:${input.eventId}`,
    audience: { userIds: [input.rule.createdById], roles: ["owner", "admin"] },
    title: `Rule "${input.rule.name}" acted on ${input.matches.length} ${input.matches.length === 1 ? "item" : "items"}`,
    body: [`Action: ${input.action.replace(/_/g, " ")}`, ...input.matches.slice(0, 20).map((m) => `- ${m.name} (campaign ${m.campaignName})`)].join("\n"),
    path: "/dashboard/performance/rules",
  });
}

export async function notifyAdAccountNeedsReconnect(input: {
  workspaceId: string;
  account: { id: string; platform: string; externalAccountId: string; name: string | null; statusReason: string | null; updatedAt: Date };
}): Promise<void> {
  const { account } = input;
  const label = `${account.name ?? account.externalAccountId} (${account.platform})`;
  await recordNotification({
    workspaceId: input.workspaceId,
    kind: "ad_account_reconnect",
    dedupeKey: `ad_account_reconnect:${account.id}:${account.updatedAt.toISOString()}`,
    audience: { roles: ["owner", "admin"] },
    title: `Ad account ${label} needs reconnecting`,
    body: [
      `The platform refused the token of ad account ${label}; uploads and ads on it wait until it is connected again.`,
      ...(account.statusReason ? [`Reason: ${quote(account.statusReason)}`] : []),
    ].join("\n"),
    path: "/dashboard/settings/ad-accounts",
  });
}

export async function notifyImportFinished(input: {
  workspaceId: string;
  run: { id: string; createdById: string; importedCount: number; skippedCount: number; failedCount: number; duplicateCount: number };
}): Promise<void> {
  const { run } = input;
  await recordNotification({
    workspaceId: input.workspaceId,
    kind: "import_finished",
    dedupeKey: `import_finished:${run.id}`,
    audience: { userIds: [run.createdById] },
    title: `Import finished: ${run.importedCount} imported${run.failedCount ? `, ${run.failedCount} failed` : ""}`,
    body: `Imported ${run.importedCount}, skipped ${run.skippedCount}, failed ${run.failedCount}, near-duplicates ${run.duplicateCount}.`,
    path: "/dashboard/import",
  });
}
