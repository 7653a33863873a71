import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { emitEventsInTransaction } from "@/lib/events/emit";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { newId } from "@/lib/ids";
import { roleAllows } from "@/lib/auth/roles";
import { memberActor, type ReviewActor } from "./actor";
import { visibleCreativeOr404 } from "./creative-access";
import { notifyReviewDecision, notifyReviewRequested } from "@/lib/notifications/sources";
import type { ReviewState, SettableStatus, StatusChange } from "./schemas";

/** The creative's review state: status, current version and the teammates asked to review. */
export async function reviewStateOf(creative: { id: string; fileName: string }): Promise<ReviewState> {
  const db = getDb();
  const [review, requests] = await Promise.all([
    db.creativeReview.findUnique({ where: { creativeId: creative.id } }),
    db.reviewRequest.findMany({ where: { creativeId: creative.id }, orderBy: { createdAt: "asc" } }),
  ]);
  const users = requests.length
    ? await db.user.findMany({ where: { id: { in: requests.map((r) => r.reviewerUserId) } }, select: { id: true, name: true } })
    : [];
  const lastChange = await db.reviewStatusChange.findFirst({ where: { creativeId: creative.id }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
  return {
    creativeId: creative.id,
    fileName: creative.fileName,
    status: review?.status ?? "none",
    currentVersion: review?.currentVersion ?? 1,
    requestedReviewers: requests.map((r) => ({ userId: r.reviewerUserId, name: users.find((u) => u.id === r.reviewerUserId)?.name ?? "Former member" })),
    updatedAt: lastChange?.createdAt.toISOString() ?? null,
  };
}

type Transaction = Prisma.TransactionClient;

/** Decisions on one creative take turns: two identical ones at once record and announce one change, not two. */
async function lockCreative(tx: Transaction, creativeId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM creatives WHERE id = ${creativeId} FOR UPDATE`;
}

/**
 * Inside the caller's transaction, which holds the creative's lock: moves the creative to a status,
 * records it in the history and stores review.status_changed. Null when it already has that status
 * (nothing written); otherwise the event's ids and what to run once the transaction has committed.
 */
async function writeReviewStatus(
  tx: Transaction,
  creative: { id: string; workspaceId: string; fileName: string },
  status: SettableStatus,
  actor: ReviewActor,
  note?: string | null,
): Promise<{ ids: (string | null)[]; afterCommit: () => Promise<void> } | null> {
  const current = await tx.creativeReview.findUnique({ where: { creativeId: creative.id } });
  if (current?.status === status) return null;
  await tx.creativeReview.upsert({
    where: { creativeId: creative.id },
    create: { creativeId: creative.id, workspaceId: creative.workspaceId, status },
    update: { status },
  });
  await tx.reviewStatusChange.create({
    data: {
      id: newId("rsc"),
      workspaceId: creative.workspaceId,
      creativeId: creative.id,
      status,
      actorUserId: actor.kind === "member" ? actor.userId : null,
      actorName: actor.name,
      linkId: actor.kind === "guest" ? actor.linkId : null,
      note: note ?? null,
    },
  });
  return emitEventsInTransaction(tx, creative.workspaceId, "review.status_changed", [
    { data: { review: { creativeId: creative.id, fileName: creative.fileName, actorName: actor.name, status } } },
  ]);
}

/**
 * Moves a creative to a status, records it in the history and stores review.status_changed in the
 * same transaction. Setting the status it already has changes nothing and emits nothing.
 */
export async function applyReviewStatus(
  creative: { id: string; workspaceId: string; fileName: string },
  status: SettableStatus,
  actor: ReviewActor,
  note?: string | null,
): Promise<{ changed: boolean }> {
  const db = getDb();
  const applied = await db.$transaction(async (tx) => {
    await lockCreative(tx, creative.id);
    return writeReviewStatus(tx, creative, status, actor, note);
  });
  if (!applied) return { changed: false };
  await applied.afterCommit();
  if (status !== "in_review") {
    const { createdById } = (await db.creative.findUnique({ where: { id: creative.id }, select: { createdById: true } })) ?? {};
    await notifyReviewDecision({
      creative: { ...creative, createdById },
      status,
      actor: { userId: actor.kind === "member" ? actor.userId : null, name: actor.name },
      note,
      eventId: applied.ids[0]!,
    });
  }
  return { changed: true };
}

/** The review state of a creative the principal can see. */
export async function getReviewStatus(principal: Principal, input: { creativeId: string }): Promise<{ review: ReviewState }> {
  const creative = await visibleCreativeOr404(principal, input.creativeId);
  return { review: await reviewStateOf(creative) };
}

/** Sets a creative's review status as a teammate (approve, request changes, or back to in review). */
export async function setReviewStatus(
  principal: Principal,
  input: { creativeId: string; status: SettableStatus; note?: string | null },
): Promise<{ review: ReviewState; changed: boolean }> {
  const creative = await visibleCreativeOr404(principal, input.creativeId);
  const { changed } = await applyReviewStatus(creative, input.status, memberActor(principal), input.note);
  return { review: await reviewStateOf(creative), changed };
}

/**
 * Asks named teammates to review a creative: they are recorded as its requested reviewers and the
 * creative goes to in_review. Each reviewer must be a member whose role may approve.
 */
export async function requestReview(
  principal: Principal,
  input: { creativeId: string; reviewerIds: string[]; note?: string | null },
): Promise<{ review: ReviewState }> {
  const creative = await visibleCreativeOr404(principal, input.creativeId);
  const db = getDb();
  const reviewerIds = [...new Set(input.reviewerIds)];
  const members = await db.membership.findMany({
    where: { workspaceId: principal.workspaceId, userId: { in: reviewerIds } },
    include: { user: { select: { name: true } } },
  });
  const unknown = reviewerIds.filter((id) => !members.some((m) => m.userId === id));
  if (unknown.length) throw new AppError("invalid_request", `reviewerIds: not members of this workspace: ${unknown.join(", ")}`);
  const cannot = members.filter((m) => !roleAllows(m.role, "review.approve"));
  if (cannot.length)
    throw new AppError("invalid_request", `reviewerIds: ${cannot.map((m) => `${m.user.name} (${m.role})`).join(", ")} cannot approve creatives`);
  // The requests, the status, its history and its event commit together: a failure part-way leaves
  // no reviewer asked of a creative whose status and history never said so (nor the reverse).
  const applied = await db.$transaction(async (tx) => {
    await lockCreative(tx, creative.id);
    await tx.reviewRequest.createMany({
      data: reviewerIds.map((reviewerUserId) => ({
        id: newId("rrq"),
        workspaceId: principal.workspaceId,
        creativeId: creative.id,
        reviewerUserId,
        requestedById: principal.userId,
      })),
      skipDuplicates: true,
    });
    return writeReviewStatus(tx, creative, "in_review", memberActor(principal), input.note);
  });
  await applied?.afterCommit();
  await notifyReviewRequested({
    creative,
    reviewerIds,
    requestedBy: { userId: principal.userId, name: principal.userName },
    note: input.note,
    eventId: newId("rvq"),
  });
  return { review: await reviewStateOf(creative) };
}

function toChange(row: {
  id: string;
  status: StatusChange["status"];
  actorName: string;
  actorUserId: string | null;
  note: string | null;
  createdAt: Date;
}): StatusChange {
  return {
    id: row.id,
    status: row.status,
    actorName: row.actorName,
    actorUserId: row.actorUserId,
    guest: row.actorUserId === null,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A creative's status history, newest first. */
export async function reviewHistory(
  principal: Principal,
  input: { creativeId: string; limit: number; cursor?: string },
): Promise<{ history: StatusChange[]; nextCursor: string | null }> {
  const creative = await visibleCreativeOr404(principal, input.creativeId);
  const rows = await getDb().reviewStatusChange.findMany({
    where: { creativeId: creative.id, ...afterCursor(input.cursor) },
    orderBy: NEWEST_FIRST,
    take: input.limit + 1,
  });
  const page = toPage(rows, input.limit);
  return { history: page.items.map(toChange), nextCursor: page.nextCursor };
}

/** Review status of every reviewed creative of the workspace (creatives absent from the map are `none`). */
export async function reviewStatusesOf(workspaceId: string): Promise<Map<string, ReviewState["status"]>> {
  const rows = await getDb().creativeReview.findMany({ where: { workspaceId, status: { not: "none" } }, select: { creativeId: true, status: true } });
  return new Map(rows.map((r) => [r.creativeId, r.status]));
}

/** Keeps the creatives whose review status is `status` (none included). */
export async function filterByReviewStatus<T extends { id: string }>(workspaceId: string, items: T[], status: ReviewState["status"]): Promise<T[]> {
  const statuses = await reviewStatusesOf(workspaceId);
  return items.filter((c) => (statuses.get(c.id) ?? "none") === status);
}
