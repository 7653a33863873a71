import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { emitEventsInTransaction } from "@/lib/events/emit";
import type { ReviewComment } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { notifyMentions } from "@/lib/notifications/sources";
import { memberActor, type ReviewActor } from "./actor";
import { currentVersionOf, visibleCreativeOr404 } from "./creative-access";
import type { Reply, Thread } from "./schemas";

interface CommentTarget {
  id: string;
  workspaceId: string;
  fileName: string;
  kind: "image" | "video";
  durationMs: number | null;
}

export interface NewComment {
  body: string;
  /** Reply to this thread (or to any comment of it). */
  parentId?: string | null;
  timeSeconds?: number | null;
  pin?: { x: number; y: number } | null;
}

function toReply(row: ReviewComment): Reply {
  return {
    id: row.id,
    body: row.body,
    authorName: row.authorName,
    authorUserId: row.authorUserId,
    guest: row.authorUserId === null,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
  };
}

/** Groups comment rows (oldest first) into threads with their replies. */
export function toThreads(rows: ReviewComment[]): Thread[] {
  const threads = rows
    .filter((r) => r.parentId === null)
    .map((r) => ({
      ...toReply(r),
      versionNumber: r.versionNumber,
      timeSeconds: r.timeSeconds,
      pin: r.pinX !== null && r.pinY !== null ? { x: r.pinX, y: r.pinY } : null,
      resolved: r.resolvedAt !== null,
      resolvedAt: r.resolvedAt?.toISOString() ?? null,
      replies: rows.filter((c) => c.parentId === r.id).map(toReply),
    }));
  return threads;
}

/** The threads on one version of a creative (default: its current version), oldest first. */
export async function threadsOf(creativeId: string, version?: number): Promise<{ versionNumber: number; threads: Thread[] }> {
  const versionNumber = version ?? (await currentVersionOf(creativeId));
  const rows = await getDb().reviewComment.findMany({ where: { creativeId, versionNumber }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { versionNumber, threads: toThreads(rows) };
}

/**
 * Adds a comment (a new thread, or a reply with parentId) on the creative's current version,
 * as a teammate or a guest, and stores review.comment in the same transaction. Time codes belong
 * to videos, pins to images; replies carry neither.
 */
export async function writeComment(creative: CommentTarget, actor: ReviewActor, input: NewComment): Promise<{ comment: Reply; threadId: string }> {
  const db = getDb();
  let versionNumber = await currentVersionOf(creative.id);
  let threadId: string | null = null;
  if (input.parentId) {
    const parent = await db.reviewComment.findFirst({ where: { id: input.parentId, creativeId: creative.id } });
    if (!parent) throw notFound("Comment");
    threadId = parent.parentId ?? parent.id;
    versionNumber = parent.versionNumber;
    if (input.timeSeconds != null || input.pin != null)
      throw new AppError("invalid_request", "A reply carries no time code or pin; they belong to the thread's first comment");
  }
  if (input.timeSeconds != null && creative.kind !== "video")
    throw new AppError("invalid_request", "timeSeconds: time codes are for video creatives; use pin on images");
  if (input.pin != null && creative.kind !== "image") throw new AppError("invalid_request", "pin: pins are for image creatives; use timeSeconds on videos");
  if (input.timeSeconds != null && creative.durationMs !== null && input.timeSeconds > creative.durationMs / 1000 + 0.05) {
    throw new AppError("invalid_request", `timeSeconds: ${input.timeSeconds} is past the end of the video (${(creative.durationMs / 1000).toFixed(2)} s)`);
  }
  const { row, afterCommit } = await db.$transaction(async (tx) => {
    // A reply and the deletion of its thread take turns (deleteComment locks the same row): the reply lands
    // in a thread that still exists, or is refused, never left behind without one.
    if (threadId && !(await tx.$queryRaw<{ id: string }[]>`SELECT id FROM review_comments WHERE id = ${threadId} FOR UPDATE`).length) {
      throw notFound("Comment");
    }
    const row = await tx.reviewComment.create({
      data: {
        id: newId("cmt"),
        workspaceId: creative.workspaceId,
        creativeId: creative.id,
        versionNumber,
        parentId: threadId,
        authorUserId: actor.kind === "member" ? actor.userId : null,
        authorName: actor.name,
        authorEmail: actor.email,
        linkId: actor.kind === "guest" ? actor.linkId : null,
        body: input.body,
        timeSeconds: input.timeSeconds ?? null,
        pinX: input.pin?.x ?? null,
        pinY: input.pin?.y ?? null,
      },
    });
    const event = await emitEventsInTransaction(tx, creative.workspaceId, "review.comment", [
      { data: { comment: { creativeId: creative.id, fileName: creative.fileName, author: actor.name, body: row.body, guest: actor.kind === "guest" } } },
    ]);
    return { row, afterCommit: event.afterCommit };
  });
  await afterCommit();
  await notifyMentions({
    workspaceId: creative.workspaceId,
    author: { userId: actor.kind === "member" ? actor.userId : null, name: actor.name },
    body: row.body,
    on: creative.fileName,
    path: `/dashboard/library/${encodeURIComponent(creative.id)}`,
    dedupeKey: row.id,
  });
  return { comment: toReply(row), threadId: threadId ?? row.id };
}

/** Lists the threads of a creative's version (default: the current one). */
export async function listComments(
  principal: Principal,
  input: { creativeId: string; version?: number },
): Promise<{ versionNumber: number; threads: Thread[] }> {
  const creative = await visibleCreativeOr404(principal, input.creativeId);
  return threadsOf(creative.id, input.version);
}

/** Starts a thread on a creative's current version. */
export async function addComment(
  principal: Principal,
  input: { creativeId: string; body: string; timeSeconds?: number | null; pin?: { x: number; y: number } | null },
): Promise<{ comment: Reply; threadId: string }> {
  const creative = await visibleCreativeOr404(principal, input.creativeId);
  return writeComment(creative, memberActor(principal), { body: input.body, timeSeconds: input.timeSeconds, pin: input.pin });
}

/** A comment of a creative the principal can see, or 404. */
async function visibleComment(principal: Principal, commentId: string) {
  const row = await getDb().reviewComment.findFirst({ where: { id: commentId, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Comment");
  await visibleCreativeOr404(principal, row.creativeId).catch(() => {
    throw notFound("Comment");
  });
  return row;
}

/** Replies to a thread (replying to a reply answers in the same thread). */
export async function replyToComment(principal: Principal, input: { commentId: string; body: string }): Promise<{ comment: Reply; threadId: string }> {
  const parent = await visibleComment(principal, input.commentId);
  const creative = await visibleCreativeOr404(principal, parent.creativeId);
  return writeComment(creative, memberActor(principal), { body: input.body, parentId: parent.id });
}

function assertAuthor(principal: Principal, row: ReviewComment) {
  if (row.authorUserId !== principal.userId) throw new AppError("forbidden", "Only the comment's author may edit or delete it");
}

/** Edits a comment's text; only its author may. */
export async function editComment(principal: Principal, input: { commentId: string; body: string }): Promise<{ comment: Reply }> {
  const row = await visibleComment(principal, input.commentId);
  assertAuthor(principal, row);
  const updated = await getDb().reviewComment.update({ where: { id: row.id }, data: { body: input.body, editedAt: new Date() } });
  return { comment: toReply(updated) };
}

/** Deletes a comment (a thread's first comment takes its replies with it); only its author may. */
export async function deleteComment(principal: Principal, input: { commentId: string }): Promise<{ deleted: number }> {
  const row = await visibleComment(principal, input.commentId);
  assertAuthor(principal, row);
  // Locked first, so a reply being written meanwhile commits before the delete reads the thread's replies.
  const count = await getDb().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM review_comments WHERE id = ${row.id} FOR UPDATE`;
    return (await tx.reviewComment.deleteMany({ where: { creativeId: row.creativeId, OR: [{ id: row.id }, { parentId: row.id }] } })).count;
  });
  return { deleted: count };
}

/** Marks a thread resolved (resolved: true) or open again. */
export async function setThreadResolved(principal: Principal, input: { commentId: string; resolved: boolean }): Promise<{ thread: Thread }> {
  const row = await visibleComment(principal, input.commentId);
  const threadId = row.parentId ?? row.id;
  const db = getDb();
  await db.reviewComment.update({
    where: { id: threadId },
    data: input.resolved ? { resolvedAt: new Date(), resolvedBy: principal.userName } : { resolvedAt: null, resolvedBy: null },
  });
  const rows = await db.reviewComment.findMany({ where: { OR: [{ id: threadId }, { parentId: threadId }] }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { thread: toThreads(rows)[0]! };
}
