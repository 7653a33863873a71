import type { IncomingMessage, ServerResponse } from "node:http";
import { notFound } from "@/lib/errors";
import { mediaResponse } from "@/lib/http/media/serve-media";
import { sendWebResponse, webRequestOf } from "@/lib/http/pages-api";
import { errorResponse, newRequestId, toErrorResponse } from "@/lib/http/responses";
import { guestMedia, openLink } from "@/lib/review/guest";
import { verifyGuestMedia } from "@/lib/review/guest-signing";

type PagesRequest = IncomingMessage & { query?: Record<string, string | string[] | undefined> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * GET /api/review/<token>/media/<creativeId>?r&exp&sig: a link's creative for its guests. The URL
 * must be signed for this link, creative and rendition and not expired, and the link must still be
 * usable (a revoked link's URLs die with it). Anything else is the same 404.
 */
async function guestMediaResponse(req: PagesRequest, request: Request): Promise<Response> {
  if (req.method !== "GET" && req.method !== "HEAD") return errorResponse("method_not_allowed", "This path supports GET and HEAD", { Allow: "GET, HEAD" });
  const token = one(req.query?.token) ?? "";
  const creativeId = one(req.query?.creativeId) ?? "";
  const link = await openLink(token);
  const rendition = verifyGuestMedia(link.id, creativeId, { r: one(req.query?.r), exp: one(req.query?.exp), sig: one(req.query?.sig) });
  if (!rendition) throw notFound("Media");
  const media = await guestMedia(link, creativeId, rendition);
  return mediaResponse(request, media, { downloadName: rendition === "download" ? "" : null });
}

export async function serveGuestMedia(req: PagesRequest, res: ServerResponse): Promise<void> {
  const request = webRequestOf(req);
  const response = await guestMediaResponse(req, request).catch((err: unknown) => toErrorResponse(err, newRequestId()));
  await sendWebResponse(req, res, response);
}
