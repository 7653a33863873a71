import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { findCreativeMedia, findCreativeThumbnail, type MediaRendition } from "@/lib/creatives/creative-media";
import { THUMBNAIL_WIDTHS, type ThumbnailWidth } from "@/lib/creatives/renditions";
import { mediaResponse } from "@/lib/http/media/serve-media";

const MediaParams = z.object({ id: z.string().min(1).max(100).describe("Creative id") });
const MediaQuery = z.object({
  download: z.string().max(1000).optional().describe("Answer as an attachment with this file name (empty: the creative's file name)"),
});

const describeMedia =
  "Any key of the creative's workspace may download it, whatever its scopes; folder-scoped members only within their folders. " +
  "Supports `Range` (206, 416), `If-None-Match` / `If-Modified-Since` (304) and `?download=<name>`.";

function mediaOperation(rendition: MediaRendition) {
  const preview = rendition === "preview";
  return defineOperation({
    method: "GET",
    path: preview ? "/api/media/{id}/preview" : "/api/media/{id}",
    operationId: preview ? "getCreativePreview" : "getCreativeMedia",
    summary: preview ? "Download a video creative's 720p MP4 preview" : "Download a creative's media",
    description: describeMedia,
    tag: "Media",
    capability: null,
    allowSession: true,
    params: MediaParams,
    query: MediaQuery,
    errors: ["not_found"],
    success: { status: 200, description: preview ? "The preview (video/mp4)" : "The media bytes (image/* or video/*); 206 for a range" },
    otherAnswers: {
      empty: {
        "206": "Partial content: the requested `Range`",
        "304": "Not modified (`If-None-Match` / `If-Modified-Since`)",
        "416": "The `Range` lies outside the file",
      },
      headers: {
        Range: "One byte range, e.g. `bytes=0-1023`",
        "If-None-Match": `An \`ETag\` of this ${preview ? "preview" : "media"}`,
        "If-Modified-Since": "An HTTP date",
      },
    },
    handler: async ({ principal, params, query, request }) =>
      mediaResponse(request, await findCreativeMedia(principal, { creativeId: params.id, rendition }), { downloadName: query.download }),
  });
}

export const getCreativeMediaOperation = mediaOperation("original");
export const getCreativePreviewOperation = mediaOperation("preview");

/** GET /api/media/{id}/thumbnails/{width}/{tag}: a WebP thumbnail, content-addressed so it is cached for a year. */
export const getCreativeThumbnailOperation = defineOperation({
  method: "GET",
  path: "/api/media/{id}/thumbnails/{width}/{tag}",
  operationId: "getCreativeThumbnail",
  summary: "Download a creative's WebP thumbnail (320 or 960 px wide; a video's poster frame)",
  description:
    "The paths come from the creative's `thumbnails` (the tag names the current file, so the answer is `immutable` and cached for a year; " +
    "a new version has new paths and an old tag is 404). Rendered on first request when the upload job has not made it yet. " +
    "Same authorization as the creative's media. Supports conditional requests.",
  tag: "Media",
  capability: null,
  allowSession: true,
  params: z.object({
    id: z.string().min(1).max(100).describe("Creative id"),
    width: z.coerce
      .number()
      .int()
      .refine((w): w is ThumbnailWidth => (THUMBNAIL_WIDTHS as readonly number[]).includes(w), {
        message: `width must be one of ${THUMBNAIL_WIDTHS.join(", ")}`,
      })
      .describe(`Width in pixels: ${THUMBNAIL_WIDTHS.join(" or ")} (never wider than the original)`),
    tag: z
      .string()
      .regex(/^[0-9a-f]{24}$/, "tag is 24 hex characters")
      .describe("The current file's rendition tag, from `thumbnails`"),
  }),
  errors: ["not_found"],
  success: { status: 200, description: "The thumbnail (image/webp)" },
  otherAnswers: { empty: { "304": "Not modified (`If-None-Match` / `If-Modified-Since`)" } },
  handler: async ({ principal, params, request }) =>
    mediaResponse(request, await findCreativeThumbnail(principal, { creativeId: params.id, width: params.width as ThumbnailWidth, tag: params.tag }), {
      immutable: true,
    }),
});
