import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { findCreativeMedia, type MediaRendition } from "@/lib/creatives/creative-media";
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
