import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors";
import { COMMENT_MAX_LENGTH, commentOut } from "./api";
import { floorHour, HOUR_MS, simulatedNow } from "./clock";
import { syncDelivery } from "./delivery";
import { numericIdFrom } from "./seeded";

/**
 * People commenting on a sandbox ad on demand (`admin sandbox comment`), beside the comments delivery
 * generates: lets an operator or a test put exact words under an ad. Like every comment, it is
 * published with the simulated hour it was written in (visible once that hour is delivered).
 */
export async function postSandboxComment(input: { workspaceId: string; adExternalId: string; message: string; authorName?: string }) {
  const db = getDb();
  const ad = await db.sandboxAd.findUnique({ where: { id: input.adExternalId } });
  const account = ad ? await db.sandboxAccount.findUnique({ where: { externalAccountId: ad.accountId } }) : null;
  if (!ad || !account || account.workspaceId !== input.workspaceId) throw notFound("Sandbox ad");
  const message = input.message.trim();
  if (!message || message.length > COMMENT_MAX_LENGTH) throw badRequest(`--message must be 1 to ${COMMENT_MAX_LENGTH} characters`);
  await syncDelivery(account);
  const now = simulatedNow(account);
  const row = await db.sandboxComment.create({
    data: {
      id: numericIdFrom(`${ad.id}:posted:${randomUUID()}`, 17),
      accountId: ad.accountId,
      adId: ad.id,
      authorName: input.authorName?.trim() || "Sandbox Visitor",
      message,
      createdAt: new Date(now),
    },
  });
  return { comment: commentOut(row), visibleFrom: new Date(floorHour(now) + HOUR_MS).toISOString() };
}

/** Everything the platform holds for the workspace's sandbox accounts, deleted comments and replies included (newest first, at most 1,000). */
export async function sandboxCommentsOf(workspaceId: string) {
  const db = getDb();
  const accounts = await db.sandboxAccount.findMany({ where: { workspaceId }, select: { externalAccountId: true } });
  const rows = await db.sandboxComment.findMany({
    where: { accountId: { in: accounts.map((a) => a.externalAccountId) } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 1000,
  });
  return { comments: rows.map((r) => ({ ...commentOut(r), deleted: r.deletedAt !== null })) };
}
