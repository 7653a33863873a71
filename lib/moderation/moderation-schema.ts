import { z } from "zod";

export const COMMENT_STATES = ["new", "hidden", "replied", "deleted"] as const;
export type CommentState = (typeof COMMENT_STATES)[number];

export const MODERATION_LIMITS = {
  keyword: 100,
  rulesPerWorkspace: 500,
  reply: 2000,
  bulkIds: 100,
  search: 200,
} as const;

export const AUDIT_ACTIONS = ["hide", "unhide", "reply", "delete"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AdCommentSchema = z.object({
  id: z.string(),
  platform: z.enum(["platform_a", "platform_b"]),
  externalId: z.string().describe("The platform's comment id"),
  adId: z.string().nullable().describe("The workspace's ad the comment is on (null when the ad was not made here)"),
  adExternalId: z.string(),
  adName: z.string().nullable().describe("The ad's name in Adloom (null when the ad was not made here)"),
  authorName: z.string(),
  message: z.string(),
  commentedAt: z.string().describe("When the person wrote it (the platform's clock)"),
  state: z.enum(COMMENT_STATES),
  reply: z.object({ externalId: z.string(), message: z.string() }).nullable().describe("The page's latest reply"),
  updatedAt: z.string(),
});
export type AdCommentOut = z.infer<typeof AdCommentSchema>;

export const AuditEntrySchema = z.object({
  id: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  actor: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("user"), userId: z.string(), apiKeyId: z.string().nullable().describe("The API key used, or null in the dashboard") }),
    z.object({ kind: z.literal("rule"), ruleId: z.string(), keyword: z.string() }),
  ]),
  detail: z.string().nullable().describe("The reply's text, for replies"),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const ModerationRuleSchema = z.object({
  id: z.string(),
  keyword: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type ModerationRuleOut = z.infer<typeof ModerationRuleSchema>;

export const BulkResultSchema = z.object({
  results: z.array(
    z.discriminatedUnion("ok", [
      z.object({ id: z.string(), ok: z.literal(true), comment: AdCommentSchema }),
      z.object({ id: z.string(), ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
    ]),
  ),
});
export type BulkResult = z.infer<typeof BulkResultSchema>;
