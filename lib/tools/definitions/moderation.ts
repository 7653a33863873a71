import { z } from "zod";
import { deleteAdComments, getAdCommentAudit, hideAdComments, listAdComments, replyToAdComment, unhideAdComments } from "@/lib/moderation/inbox";
import {
  AdCommentSchema,
  AuditEntrySchema,
  BulkResultSchema,
  COMMENT_STATES,
  MODERATION_LIMITS,
  ModerationRuleSchema,
} from "@/lib/moderation/moderation-schema";
import { createModerationRule, deleteModerationRule, listModerationRules } from "@/lib/moderation/rules";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

const ids = z
  .array(idArg("Ad comment"))
  .min(1)
  .max(MODERATION_LIMITS.bulkIds)
  .describe(`Inbox comment ids (1 to ${MODERATION_LIMITS.bulkIds}); every one must be the workspace's, or nothing is done (404)`);

const bulk = (name: string, title: string, verb: string, destructive: boolean, handler: typeof hideAdComments) =>
  defineTool({
    name,
    title,
    description: `${verb} on the ad platform, then in the inbox, each comment on its own: the answer has one result per id (ok with the comment, or the platform's error, leaving that comment unchanged).`,
    category: "moderation",
    capability: "comments.moderate",
    readOnly: false,
    destructive,
    input: z.strictObject({ ids }),
    output: BulkResultSchema,
    handler,
  });

export const moderationTools = [
  defineTool({
    name: "list_ad_comments",
    title: "List ad comments",
    description:
      "The moderation inbox: comments people left on the workspace's published ads (pulled from the platforms every five minutes), newest first, filtered by state, ad and a text search. Paginated: pass nextCursor back as cursor.",
    category: "moderation",
    capability: "comments.moderate",
    readOnly: true,
    destructive: false,
    input: z.strictObject({
      ...pageArgs({ defaultLimit: 50, maxLimit: 200 }),
      state: z.array(z.enum(COMMENT_STATES)).min(1).max(4).optional().describe("Only comments in these states (new, hidden, replied, deleted)"),
      adId: idArg("Ad").optional().describe("Only comments on this ad"),
      search: z.string().trim().min(1).max(MODERATION_LIMITS.search).optional().describe("Only comments whose text or author contains this (case-insensitive)"),
    }),
    output: z.object({ comments: z.array(AdCommentSchema), nextCursor: z.string().nullable() }),
    handler: listAdComments,
  }),
  defineTool({
    name: "get_ad_comment_audit",
    title: "Get ad comment audit",
    description:
      "One inbox comment with its audit trail: every hide, unhide, reply and delete, with who did it (a member, and the API key used) or which keyword rule, and when.",
    category: "moderation",
    capability: "comments.moderate",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: idArg("Ad comment") }),
    output: z.object({ comment: AdCommentSchema, audit: z.array(AuditEntrySchema) }),
    handler: getAdCommentAudit,
  }),
  bulk("hide_ad_comments", "Hide ad comments", "Hides the comments (their authors and friends still see them, others do not)", false, hideAdComments),
  bulk("unhide_ad_comments", "Unhide ad comments", "Shows hidden comments again", false, unhideAdComments),
  bulk("delete_ad_comments", "Delete ad comments", "Deletes the comments and their replies for good", true, deleteAdComments),
  defineTool({
    name: "reply_to_ad_comment",
    title: "Reply to ad comment",
    description:
      "Replies to a comment as the ad account's page, on the platform, then records the reply in the inbox (state replied, unless the comment is hidden).",
    category: "moderation",
    capability: "comments.moderate",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: idArg("Ad comment"), message: z.string().trim().min(1).max(MODERATION_LIMITS.reply).describe("The reply's text") }),
    output: z.object({ comment: AdCommentSchema }),
    handler: replyToAdComment,
  }),
  defineTool({
    name: "list_moderation_rules",
    title: "List moderation rules",
    description: "The workspace's keyword rules, newest first. Paginated: pass nextCursor back as cursor.",
    category: "moderation",
    capability: "comments.moderate",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ ...pageArgs({ defaultLimit: 100, maxLimit: 500 }) }),
    output: z.object({ rules: z.array(ModerationRuleSchema), nextCursor: z.string().nullable() }),
    handler: listModerationRules,
  }),
  defineTool({
    name: "create_moderation_rule",
    title: "Create moderation rule",
    description:
      "Adds a keyword or phrase: comments pulled from now on that contain it as whole words, ignoring case and accents, are hidden automatically (docs/moderation.md). A keyword equal to an existing one after folding is a conflict.",
    category: "moderation",
    capability: "comments.moderate",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ keyword: z.string().trim().min(1).max(MODERATION_LIMITS.keyword).describe("A word or phrase") }),
    output: z.object({ rule: ModerationRuleSchema }),
    handler: createModerationRule,
  }),
  defineTool({
    name: "delete_moderation_rule",
    title: "Delete moderation rule",
    description: "Removes a keyword rule. Comments it already hid stay hidden (their audit names the keyword).",
    category: "moderation",
    capability: "comments.moderate",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ id: idArg("Moderation rule") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteModerationRule,
  }),
];
