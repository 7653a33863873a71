import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { mediaResponse } from "@/lib/http/media/serve-media";
import { findVersionMedia } from "@/lib/review/versions";

/** GET /api/media/{id}/versions/{number}: one version's file (same authorization as the creative's media). */
export const getCreativeVersionMediaOperation = defineOperation({
  method: "GET",
  path: "/api/media/{id}/versions/{number}",
  operationId: "getCreativeVersionMedia",
  summary: "Download one version of a creative",
  description:
    "The file of one version (list_creative_versions gives the paths). Any key of the creative's workspace may download it; folder-scoped members only within their folders. Supports `Range`, conditional requests and `?download=<name>`.",
  tag: "Media",
  capability: null,
  allowSession: true,
  params: z.object({ id: z.string().min(1).max(100).describe("Creative id"), number: z.coerce.number().int().min(1).max(100_000).describe("Version number") }),
  query: z.object({ download: z.string().max(1000).optional().describe("Answer as an attachment with this file name (empty: the version's file name)") }),
  errors: ["not_found"],
  success: { status: 200, description: "The version's bytes; 206 for a range" },
  handler: async ({ principal, params, query, request }) =>
    mediaResponse(request, await findVersionMedia(principal, { creativeId: params.id, number: params.number }), { downloadName: query.download }),
});
