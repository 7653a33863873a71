import { z } from "zod";
import { isoDateTime } from "@/lib/iso-time";
import { addComment, deleteComment, editComment, listComments, replyToComment, setThreadResolved } from "@/lib/review/comments";
import { createReviewLink, LINK_CREATIVES_MAX, LINK_PASSWORD_MIN, getReviewLinkUrl, listReviewLinks, revokeReviewLink } from "@/lib/review/links";
import {
  CommentBodySchema,
  LinkPermissionsSchema,
  PinSchema,
  ReplySchema,
  ReviewLinkSchema,
  ReviewStateSchema,
  SETTABLE_STATUSES,
  StatusChangeSchema,
  ThreadSchema,
  TimeSecondsSchema,
  VersionSchema,
} from "@/lib/review/schemas";
import { getReviewStatus, requestReview, reviewHistory, setReviewStatus } from "@/lib/review/status";
import { addVersion, listVersions } from "@/lib/review/versions";
import { defineTool } from "../types";
import { TOOL_UPLOAD_MAX_BYTES } from "./uploads";
import { idArg, pageArgs } from "./shared";

const creativeId = idArg("Creative");
const commentId = idArg("Comment").describe("Comment id (a thread's first comment or a reply)");
const note = z.string().trim().max(2000).nullable().optional().describe("Optional note kept in the history");
const CommentResult = z.object({ comment: ReplySchema, threadId: z.string().describe("The thread the comment belongs to") });

export const reviewTools = [
  defineTool({
    name: "get_review_status",
    title: "Get review status",
    description: "A creative's review status (none, in_review, changes_requested, approved), its current version number and the teammates asked to review it.",
    category: "review",
    capability: "creatives.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ creativeId }),
    output: z.object({ review: ReviewStateSchema }),
    handler: getReviewStatus,
  }),
  defineTool({
    name: "set_review_status",
    title: "Set review status",
    description:
      "Approves a creative, requests changes, or sends it back to in_review. Setting the status it already has changes nothing (changed: false). Sends review.status_changed.",
    category: "review",
    capability: "review.approve",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ creativeId, status: z.enum(SETTABLE_STATUSES).describe("approved, changes_requested or in_review"), note }),
    output: z.object({ review: ReviewStateSchema, changed: z.boolean() }),
    handler: setReviewStatus,
  }),
  defineTool({
    name: "list_review_history",
    title: "List review history",
    description:
      "A creative's review status changes, newest first, with who made each (teammates and review-link guests). Paginated: pass nextCursor back as cursor.",
    category: "review",
    capability: "creatives.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ creativeId, ...pageArgs({ defaultLimit: 50, maxLimit: 200 }) }),
    output: z.object({ history: z.array(StatusChangeSchema), nextCursor: z.string().nullable() }),
    handler: reviewHistory,
  }),
  defineTool({
    name: "request_review",
    title: "Request review",
    description:
      "Asks named teammates (user ids of members whose role may approve) to review a creative and moves it to in_review. Sends review.status_changed when the status changes.",
    category: "review",
    capability: "review.comment",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ creativeId, reviewerIds: z.array(idArg("User")).min(1).max(50).describe("Teammates to ask (user ids)"), note }),
    output: z.object({ review: ReviewStateSchema }),
    handler: requestReview,
  }),
  defineTool({
    name: "list_comments",
    title: "List comments",
    description: "The comment threads (with replies) on a creative's current version, or on the version you name, oldest first.",
    category: "review",
    capability: "creatives.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ creativeId, version: z.number().int().min(1).optional().describe("Version number; default the current version") }),
    output: z.object({ versionNumber: z.number().int(), threads: z.array(ThreadSchema) }),
    handler: listComments,
  }),
  defineTool({
    name: "add_comment",
    title: "Add comment",
    description:
      "Starts a comment thread on a creative's current version: timeSeconds places it on a video's timeline, pin (normalized x, y) on an image. Sends review.comment.",
    category: "review",
    capability: "review.comment",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ creativeId, body: CommentBodySchema, timeSeconds: TimeSecondsSchema.nullable().optional(), pin: PinSchema.nullable().optional() }),
    output: CommentResult,
    handler: addComment,
  }),
  defineTool({
    name: "reply_to_comment",
    title: "Reply to comment",
    description: "Replies in a comment's thread (replying to a reply answers the same thread). Sends review.comment.",
    category: "review",
    capability: "review.comment",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ commentId, body: CommentBodySchema }),
    output: CommentResult,
    handler: replyToComment,
  }),
  defineTool({
    name: "edit_comment",
    title: "Edit comment",
    description: "Changes a comment's text. Only its author may.",
    category: "review",
    capability: "review.comment",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ commentId, body: CommentBodySchema }),
    output: z.object({ comment: ReplySchema }),
    handler: editComment,
  }),
  defineTool({
    name: "delete_comment",
    title: "Delete comment",
    description: "Deletes a comment; deleting a thread's first comment deletes its replies. Only its author may.",
    category: "review",
    capability: "review.comment",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ commentId }),
    output: z.object({ deleted: z.number().int().describe("Comments removed (the thread's replies included)") }),
    handler: deleteComment,
  }),
  defineTool({
    name: "resolve_comment",
    title: "Resolve comment",
    description: "Marks the thread of a comment resolved.",
    category: "review",
    capability: "review.comment",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ commentId }),
    output: z.object({ thread: ThreadSchema }),
    handler: (principal, input) => setThreadResolved(principal, { commentId: input.commentId, resolved: true }),
  }),
  defineTool({
    name: "reopen_comment",
    title: "Reopen comment",
    description: "Opens a resolved thread again.",
    category: "review",
    capability: "review.comment",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ commentId }),
    output: z.object({ thread: ThreadSchema }),
    handler: (principal, input) => setThreadResolved(principal, { commentId: input.commentId, resolved: false }),
  }),
  defineTool({
    name: "list_creative_versions",
    title: "List creative versions",
    description: "A creative's versions, oldest first, each with its media path and comment count; `current` marks the one mediaPath serves.",
    category: "review",
    capability: "creatives.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ creativeId }),
    output: z.object({ versions: z.array(VersionSchema), currentVersion: z.number().int() }),
    handler: listVersions,
  }),
  defineTool({
    name: "add_creative_version",
    title: "Add creative version",
    description:
      `Makes a new file the creative's next version: a completed upload (uploadId; its file is copied, its own creative stays) or base64 bytes (file, up to ${TOOL_UPLOAD_MAX_BYTES / 1024} KB). ` +
      "It must be of the creative's kind. The creative's mediaPath then serves it; earlier versions keep their media and comments. Sends review.version_uploaded.",
    category: "review",
    capability: "review.version",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      creativeId,
      uploadId: idArg("Completed upload").optional(),
      file: z
        .strictObject({
          fileName: z.string().min(1).max(255),
          contentBase64: z
            .string()
            .min(1)
            .max(Math.ceil((TOOL_UPLOAD_MAX_BYTES * 4) / 3) + 4)
            .describe("The file's bytes, base64"),
        })
        .optional(),
    }),
    output: z.object({ version: VersionSchema, currentVersion: z.number().int() }),
    handler: addVersion,
  }),
  defineTool({
    name: "create_review_link",
    title: "Create review link",
    description:
      "Creates an external review link for chosen creatives (creativeIds) or a folder (folderId) that guests open without an account. " +
      "The token (in url) is shown only in this answer. Optional password and expiry; permissions say whether guests may comment, decide (approve / request changes) and download originals.",
    category: "review",
    capability: "review.share",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      name: z.string().trim().min(1).max(200).describe("What the link shares, shown to guests and in review.link_viewed"),
      creativeIds: z.array(creativeId).min(1).max(LINK_CREATIVES_MAX).optional(),
      folderId: idArg("Folder").optional(),
      password: z.string().min(LINK_PASSWORD_MIN).max(200).optional().describe(`Guests must give it (at least ${LINK_PASSWORD_MIN} characters)`),
      expiresAt: isoDateTime({ offset: true }).optional().describe("When the link stops working (ISO 8601)"),
      permissions: LinkPermissionsSchema.partial().strict().optional().describe("Defaults: comment true, decide false, download false, internalComments false"),
    }),
    output: z.object({ link: ReviewLinkSchema, token: z.string(), url: z.string().describe("The guest page") }),
    handler: createReviewLink,
  }),
  defineTool({
    name: "list_review_links",
    title: "List review links",
    description:
      "The workspace's review links, newest first, with their state (active, expired, revoked) and what they share by name. get_review_link_url shows an address again. Paginated.",
    category: "review",
    capability: "review.share",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ ...pageArgs({ defaultLimit: 50, maxLimit: 200 }) }),
    output: z.object({ links: z.array(ReviewLinkSchema), nextCursor: z.string().nullable() }),
    handler: listReviewLinks,
  }),
  defineTool({
    name: "get_review_link_url",
    title: "Get review link address",
    description:
      "The guest address of an active review link again, to copy and send (the same permission as revoking; folder-scoped members only for links they made). " +
      "Links made before addresses could be shown again answer 409 conflict: share a new one.",
    category: "review",
    capability: "review.share",
    readOnly: true,
    destructive: false,
    input: z.strictObject({ id: idArg("Review link") }),
    output: z.object({ url: z.string().describe("The guest page's address") }),
    handler: getReviewLinkUrl,
  }),
  defineTool({
    name: "revoke_review_link",
    title: "Revoke review link",
    description: "Revokes a review link: its very next request (page, media, comment) finds nothing.",
    category: "review",
    capability: "review.share",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ id: idArg("Review link") }),
    output: z.object({ link: ReviewLinkSchema }),
    handler: revokeReviewLink,
  }),
];
