import { createHash } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import { withBusyRetry } from "@/lib/ads/platform-access";
import { getDb } from "@/lib/db/client";
import { AppError, conflict, notFound } from "@/lib/errors";
import type { AdCommentItem, Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, toPage } from "@/lib/pagination/cursor";
import { adapterFor } from "@/lib/platforms";
import { toAuditEntry, toComment } from "./comment-rows";
import type { AdCommentOut, AuditAction, AuditEntry, BulkResult, CommentState } from "./moderation-schema";

export interface ListAdCommentsInput {
  limit: number;
  cursor?: string;
  state?: CommentState[];
  adId?: string;
  search?: string;
}

/** The inbox, newest comment first, filtered by state, ad and a text search (case-insensitive, in the message or author). */
export async function listAdComments(principal: Principal, input: ListAdCommentsInput): Promise<{ comments: AdCommentOut[]; nextCursor: string | null }> {
  const search = input.search?.trim();
  const where: Prisma.AdCommentItemWhereInput = {
    workspaceId: principal.workspaceId,
    ...(input.state?.length ? { state: { in: input.state } } : {}),
    ...(input.adId ? { adId: input.adId } : {}),
    ...(search ? { AND: [{ OR: [{ message: { contains: search, mode: "insensitive" } }, { authorName: { contains: search, mode: "insensitive" } }] }] } : {}),
    ...afterCursor(input.cursor),
  };
  const rows = await getDb().adCommentItem.findMany({ where, orderBy: NEWEST_FIRST, take: input.limit + 1 });
  const page = toPage(rows, input.limit);
  const adNames = await adNamesOf(page.items);
  return { comments: page.items.map((r) => toComment(r, adNames)), nextCursor: page.nextCursor };
}

async function adNamesOf(rows: AdCommentItem[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((r) => r.adId).filter((id): id is string => id !== null))];
  const ads = ids.length ? await getDb().ad.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }) : [];
  return new Map(ads.map((a) => [a.id, a.name]));
}

const commentOut = async (row: AdCommentItem) => toComment(row, await adNamesOf([row]));

async function requireComment(principal: Principal, id: string): Promise<AdCommentItem> {
  const row = await getDb().adCommentItem.findFirst({ where: { id, workspaceId: principal.workspaceId } });
  if (!row) throw notFound("Ad comment");
  return row;
}

/** One comment with its audit trail, oldest action first. */
export async function getAdCommentAudit(principal: Principal, input: { id: string }): Promise<{ comment: AdCommentOut; audit: AuditEntry[] }> {
  const row = await requireComment(principal, input.id);
  const audit = await getDb().adCommentAudit.findMany({ where: { commentId: row.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { comment: await commentOut(row), audit: audit.map(toAuditEntry) };
}

/** Who acts: a member (through the dashboard or one of their API keys) or a keyword rule. */
export type Actor = { kind: "user"; userId: string; apiKeyId: string | null } | { kind: "rule"; ruleId: string; keyword: string };

export function actorOf(principal: Principal): Actor {
  return { kind: "user", userId: principal.userId, apiKeyId: principal.kind === "api_key" ? principal.keyId : null };
}

type Action = { kind: "hide" } | { kind: "unhide" } | { kind: "delete" } | { kind: "reply"; message: string };

/**
 * Applies one action: first on the platform, then (only if the platform accepted) the inbox row and
 * its audit entry in one transaction. A refusal is thrown as the platform's error; nothing changed here.
 */
export async function applyAction(row: AdCommentItem, action: Action, actor: Actor): Promise<AdCommentItem> {
  if (row.state === "deleted") throw conflict(`The comment ${row.id} was deleted; nothing more can be done with it`);
  const db = getDb();
  const account = await db.adAccount.findUnique({ where: { id: row.adAccountId } });
  if (!account) throw new AppError("not_connected", `The ad account of comment ${row.id} is no longer connected`);
  const api = adapterFor(account);
  // Each change is written relative to the row as it is at commit time (another moderator may have acted
  // since `row` was read): deleted wins over hidden, hidden over replied, replied over new.
  const id = row.id;
  const notDeleted = { id, state: { not: "deleted" as const } };
  let changes: ((tx: Prisma.TransactionClient) => Promise<unknown>)[];
  let detail: string | null = null;
  switch (action.kind) {
    case "hide":
      await withBusyRetry(() => api.setCommentHidden(account, row.externalId, true));
      changes = [(tx) => tx.adCommentItem.updateMany({ where: notDeleted, data: { state: "hidden" } })];
      break;
    case "unhide":
      await withBusyRetry(() => api.setCommentHidden(account, row.externalId, false));
      changes = [
        (tx) => tx.adCommentItem.updateMany({ where: { id, state: "hidden", replyExternalId: { not: null } }, data: { state: "replied" } }),
        (tx) => tx.adCommentItem.updateMany({ where: { id, state: "hidden", replyExternalId: null }, data: { state: "new" } }),
      ];
      break;
    case "delete":
      await withBusyRetry(() => api.deleteComment(account, row.externalId));
      changes = [(tx) => tx.adCommentItem.updateMany({ where: { id }, data: { state: "deleted" } })];
      break;
    case "reply": {
      // The same text to the same comment is one reply: a retry after a lost answer or a double submit posts nothing new.
      const clientRef = createHash("sha256").update(`${row.id}\0${action.message}`).digest("hex").slice(0, 32);
      const reply = await withBusyRetry(() => api.replyToComment(account, row.externalId, action.message, clientRef));
      // Already recorded (the same reply answered again): nothing changed, nothing to audit.
      const recorded = await db.adCommentItem.findUnique({ where: { id: row.id }, select: { replyExternalId: true } });
      if (recorded?.replyExternalId === reply.externalId) return db.adCommentItem.findUniqueOrThrow({ where: { id: row.id } });
      // A hidden comment stays hidden when answered; a new one is now replied.
      changes = [
        (tx) => tx.adCommentItem.updateMany({ where: notDeleted, data: { replyExternalId: reply.externalId, replyMessage: reply.message } }),
        (tx) => tx.adCommentItem.updateMany({ where: { id, state: "new" }, data: { state: "replied" } }),
      ];
      detail = action.message;
      break;
    }
  }
  await db.$transaction(async (tx) => {
    // A rule's hide is recorded by the first poll whose call the platform accepted: a poll repeated after a
    // crash, or another instance's, finds the comment checked and records nothing more.
    const checked = await tx.adCommentItem.updateMany({
      where: { id, ...(actor.kind === "rule" ? { rulesCheckedAt: null } : {}) },
      data: { rulesCheckedAt: new Date() },
    });
    if (!checked.count) return;
    for (const change of changes) await change(tx);
    await tx.adCommentAudit.create({
      data: {
        id: newId("modaudit"),
        commentId: id,
        workspaceId: row.workspaceId,
        action: action.kind satisfies AuditAction,
        detail,
        ...(actor.kind === "user" ? { userId: actor.userId, apiKeyId: actor.apiKeyId } : { ruleId: actor.ruleId, ruleKeyword: actor.keyword }),
      },
    });
  });
  return db.adCommentItem.findUniqueOrThrow({ where: { id } });
}

/** Replies as the page; the answer is the comment with its reply. */
export async function replyToAdComment(principal: Principal, input: { id: string; message: string }): Promise<{ comment: AdCommentOut }> {
  const row = await requireComment(principal, input.id);
  return { comment: await commentOut(await applyAction(row, { kind: "reply", message: input.message }, actorOf(principal))) };
}

/**
 * The same action on several comments: every id must be one of the workspace's comments (otherwise
 * 404 and nothing is done); then each is tried in turn and answered on its own, so one refusal by
 * the platform leaves the others done and itself unchanged.
 */
export async function bulkAction(principal: Principal, ids: string[], kind: "hide" | "unhide" | "delete"): Promise<BulkResult> {
  const unique = [...new Set(ids)];
  const rows = await getDb().adCommentItem.findMany({ where: { id: { in: unique }, workspaceId: principal.workspaceId } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = unique.filter((id) => !byId.has(id));
  if (missing.length) throw new AppError("not_found", `Ad comment not found: ${missing.join(", ")}`);
  const results: BulkResult["results"] = [];
  for (const id of unique) {
    try {
      results.push({ id, ok: true, comment: await commentOut(await applyAction(byId.get(id)!, { kind }, actorOf(principal))) });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({ id, ok: false, error: { code: err.code, message: err.message } });
    }
  }
  return { results };
}

export const hideAdComments = (principal: Principal, input: { ids: string[] }) => bulkAction(principal, input.ids, "hide");
export const unhideAdComments = (principal: Principal, input: { ids: string[] }) => bulkAction(principal, input.ids, "unhide");
export const deleteAdComments = (principal: Principal, input: { ids: string[] }) => bulkAction(principal, input.ids, "delete");
