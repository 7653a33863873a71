import { z } from "zod";

/** Review status values: `none` until a review starts; the other three are what review.status_changed carries. */
export const REVIEW_STATUSES = ["none", "in_review", "changes_requested", "approved"] as const;
export type ReviewStatusValue = (typeof REVIEW_STATUSES)[number];
/** What a status can be set to (none is only the starting point). */
export const SETTABLE_STATUSES = ["in_review", "changes_requested", "approved"] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];
/** The two decisions a reviewer (teammate or guest with the right) takes. */
export const DECISIONS = ["approved", "changes_requested"] as const;
export type Decision = (typeof DECISIONS)[number];

const iso = (what: string) => z.string().describe(`${what} (ISO 8601, UTC)`);

export const PersonSchema = z.object({ userId: z.string(), name: z.string() });

export const ReviewStateSchema = z
  .object({
    creativeId: z.string(),
    fileName: z.string(),
    status: z.enum(REVIEW_STATUSES).describe("none, in_review, changes_requested or approved"),
    currentVersion: z.number().int().describe("Number of the current version (1 until a new version is added)"),
    requestedReviewers: z.array(PersonSchema).describe("Teammates asked to review"),
    updatedAt: iso("Last status change").nullable(),
  })
  .meta({ id: "ReviewState" });
export type ReviewState = z.infer<typeof ReviewStateSchema>;

export const StatusChangeSchema = z
  .object({
    id: z.string(),
    status: z.enum(REVIEW_STATUSES),
    actorName: z.string(),
    actorUserId: z.string().nullable().describe("Null when a review-link guest decided"),
    guest: z.boolean(),
    note: z.string().nullable(),
    createdAt: iso("When"),
  })
  .meta({ id: "ReviewStatusChange" });
export type StatusChange = z.infer<typeof StatusChangeSchema>;

const CommentFields = {
  id: z.string(),
  body: z.string(),
  authorName: z.string(),
  authorUserId: z.string().nullable().describe("Null for a review-link guest"),
  guest: z.boolean(),
  createdAt: iso("Written"),
  editedAt: iso("Last edited").nullable(),
};

export const ReplySchema = z.object(CommentFields).meta({ id: "ReviewReply" });
export type Reply = z.infer<typeof ReplySchema>;

export const ThreadSchema = z
  .object({
    ...CommentFields,
    versionNumber: z.number().int().describe("The version the thread is about"),
    timeSeconds: z.number().nullable().describe("Video time code in seconds; null for images and general comments"),
    pin: z.object({ x: z.number(), y: z.number() }).nullable().describe("Image pin, normalized 0..1 from the left and the top"),
    resolved: z.boolean(),
    resolvedAt: iso("Resolved").nullable(),
    replies: z.array(ReplySchema),
  })
  .meta({ id: "ReviewThread" });
export type Thread = z.infer<typeof ThreadSchema>;

export const VersionSchema = z
  .object({
    number: z.number().int(),
    fileName: z.string(),
    kind: z.enum(["image", "video"]),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    mediaPath: z.string().describe("`/api/media/<creative_id>/versions/<number>` (same Bearer key as mediaPath)"),
    thumbnails: z
      .object({ small: z.string().describe("320 px wide WebP"), large: z.string().describe("960 px wide WebP") })
      .optional()
      .describe("This version's thumbnails (a video's poster frame), cached as immutable"),
    current: z.boolean(),
    actorName: z.string().describe("Who added it"),
    commentCount: z.number().int(),
    createdAt: iso("Added"),
  })
  .meta({ id: "CreativeVersion" });
export type Version = z.infer<typeof VersionSchema>;

export const LinkPermissionsSchema = z.object({
  comment: z.boolean().describe("Guests may comment"),
  decide: z.boolean().describe("Guests may approve or request changes"),
  download: z.boolean().describe("Guests may download the originals"),
  internalComments: z
    .boolean()
    .describe("Guests see the team's own comment threads too; off (the default): only the threads guests started through this link, with their replies"),
});

export const ReviewLinkSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    state: z.enum(["active", "expired", "revoked"]),
    folderId: z.string().nullable().describe("The shared folder; null when the link names creatives"),
    creativeIds: z.array(z.string()).describe("The shared creatives (empty for a folder link)"),
    passwordProtected: z.boolean(),
    expiresAt: iso("Expiry").nullable(),
    permissions: LinkPermissionsSchema,
    createdAt: iso("Created"),
    revokedAt: iso("Revoked").nullable(),
    copyable: z.boolean().describe("Whether get_review_link_url can show its address again (links made before that could not)"),
    shares: z
      .object({
        folderName: z.string().nullable().describe("The shared folder's name (with its subfolders); null for a creatives link"),
        creativeNames: z.array(z.string()).describe("File names of the first shared creatives (up to 5)"),
        creativeCount: z.number().int().describe("How many creatives the link names (0 for a folder link)"),
      })
      .optional()
      .describe("What the link shares, by name (in list_review_links)"),
  })
  .meta({ id: "ReviewLink" });
export type ReviewLinkView = z.infer<typeof ReviewLinkSchema>;

export const COMMENT_BODY_MAX = 5000;
export const CommentBodySchema = z.string().trim().min(1).max(COMMENT_BODY_MAX).describe(`Comment text, 1 to ${COMMENT_BODY_MAX} characters`);
export const TimeSecondsSchema = z.number().min(0).max(86_400).describe("Video time code in seconds (videos only)");
export const PinSchema = z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) }).describe("Image pin, normalized 0..1 (images only)");
