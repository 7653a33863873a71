import { randomUUID } from "node:crypto";
import { badRequest, notFound } from "@/lib/errors";
import { COMMENT_COLUMNS, COMMENT_MAX_LENGTH, commentOut, type CommentRow } from "./ads-api";
import { findSandboxAccount, floorHour, HOUR_MS, simulatedNow } from "./clock";
import { syncDelivery } from "./delivery";
import { numericIdFrom } from "./seeded";
import { insertComments, removeComment, type NewComment } from "./batches";
import { row, rows, TABLE } from "./store";

/**
 * People commenting on a sandbox ad on demand (`admin sandbox comment`), beside the comments delivery
 * generates: lets an operator or a test put exact words under an ad. Like every comment, it is
 * published with the simulated hour it was written in (visible once that hour is delivered).
 */
export async function postSandboxComment(input: { workspaceId: string; adExternalId: string; message: string; authorName?: string }) {
  const ad = await row<{ id: string; accountId: string }>(`SELECT id, "accountId" FROM ${TABLE.ads} WHERE id = $1`, input.adExternalId);
  const account = ad ? await findSandboxAccount(ad.accountId) : null;
  if (!ad || !account || account.workspaceId !== input.workspaceId) throw notFound("Sandbox ad");
  const message = input.message.trim();
  if (!message || message.length > COMMENT_MAX_LENGTH) throw badRequest(`--message must be 1 to ${COMMENT_MAX_LENGTH} characters`);
  await syncDelivery(account);
  const now = simulatedNow(account);
  const comment = await insertComment({
    id: numericIdFrom(`${ad.id}:posted:${randomUUID()}`, 17),
    accountId: ad.accountId,
    adId: ad.id,
    authorName: input.authorName?.trim() || "Sandbox Visitor",
    message,
    createdAt: new Date(now),
  });
  return { comment: commentOut(comment), visibleFrom: new Date(floorHour(now) + HOUR_MS).toISOString() };
}

/**
 * A comment's author deletes it on the sandbox platform (`admin sandbox uncomment`), its replies with it, as
 * people do on the real ones: it leaves the platform's list, and moderating it finds it gone. Answers it as
 * the platform now holds it; one deleted already stays as it was.
 */
export async function deleteSandboxCommentByAuthor(input: { workspaceId: string; commentExternalId: string }) {
  const comment = await row<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM ${TABLE.comments} WHERE id = $1`, input.commentExternalId);
  const account = comment ? await findSandboxAccount(comment.accountId) : null;
  if (!comment || !account || account.workspaceId !== input.workspaceId) throw notFound("Sandbox comment");
  await removeComment(comment.accountId, comment.id, new Date(simulatedNow(account)));
  const held = (await row<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM ${TABLE.comments} WHERE id = $1`, comment.id)) ?? comment;
  return { comment: { ...commentOut(held), deleted: held.deletedAt !== null } };
}

async function insertComment(comment: NewComment): Promise<CommentRow> {
  await insertComments([comment]);
  const stored = await row<CommentRow>(`SELECT ${COMMENT_COLUMNS} FROM ${TABLE.comments} WHERE id = $1`, comment.id);
  if (!stored) throw new Error(`the sandbox lost comment ${comment.id}`);
  return stored;
}

/** Everything the platform holds for the workspace's sandbox accounts, deleted comments and replies included (newest first, at most 1,000). */
export async function sandboxCommentsOf(workspaceId: string) {
  const found = await rows<CommentRow>(
    `SELECT ${COMMENT_COLUMNS} FROM ${TABLE.comments}
      WHERE "accountId" IN (SELECT "externalAccountId" FROM ${TABLE.accounts} WHERE "workspaceId" = $1)
      ORDER BY "createdAt" DESC, id DESC LIMIT 1000`,
    workspaceId,
  );
  return { comments: found.map((r) => ({ ...commentOut(r), deleted: r.deletedAt !== null })) };
}
