import type { AdCommentAudit, AdCommentItem } from "@/lib/generated/prisma/client";
import type { AdCommentOut, AuditEntry, AuditAction } from "./moderation-schema";

/** The row as the tools answer it; `adNames` maps the workspace's ad ids to their names. */
export function toComment(row: AdCommentItem, adNames: ReadonlyMap<string, string> = new Map()): AdCommentOut {
  return {
    id: row.id,
    platform: row.platform,
    externalId: row.externalId,
    adId: row.adId,
    adExternalId: row.adExternalId,
    adName: row.adId ? (adNames.get(row.adId) ?? null) : null,
    authorName: row.authorName,
    message: row.message,
    commentedAt: row.commentedAt.toISOString(),
    state: row.state,
    reply: row.replyExternalId ? { externalId: row.replyExternalId, message: row.replyMessage ?? "" } : null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toAuditEntry(row: AdCommentAudit): AuditEntry {
  return {
    id: row.id,
    action: row.action as AuditAction,
    actor: row.ruleId
      ? { kind: "rule", ruleId: row.ruleId, keyword: row.ruleKeyword ?? "" }
      : { kind: "user", userId: row.userId ?? "", apiKeyId: row.apiKeyId },
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
  };
}
