import { notFound } from "@/lib/errors";
import { mediaResponse } from "@/lib/http/media/serve-media";
import { pagesApiHandler } from "@/lib/http/pages-api";
import { urlOf } from "@/lib/http/request-url";
import { errorResponse } from "@/lib/http/responses";
import { guestMedia, openLink } from "@/lib/review/guest";
import { verifyGuestMedia } from "@/lib/review/guest-signing";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * GET /api/review/<token>/media/<creativeId>?r&exp&sig: a link's creative for its guests. The URL
 * must be signed for this link, creative and rendition and not expired, and the link must still be
 * usable (a revoked link's URLs die with it). Anything else is the same 404.
 */
async function guestMediaResponse(request: Request, token: string, creativeId: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD")
    return errorResponse("method_not_allowed", "This path supports GET and HEAD", { Allow: "GET, HEAD" });
  const link = await openLink(token);
  const query = urlOf(request).searchParams;
  const rendition = verifyGuestMedia(link.id, creativeId, {
    r: query.get("r") ?? undefined,
    exp: query.get("exp") ?? undefined,
    sig: query.get("sig") ?? undefined,
  });
  if (!rendition) throw notFound("Media");
  const media = await guestMedia(link, creativeId, rendition);
  return mediaResponse(request, media, { downloadName: rendition === "download" ? "" : null });
}

export const serveGuestMedia = pagesApiHandler(
  async (request, segment) => {
    const { token, creativeId } = await segment.params;
    return guestMediaResponse(request, one(token) ?? "", one(creativeId) ?? "");
  },
  { paramsOf: (req) => ({ token: one(req.query?.token) ?? "", creativeId: one(req.query?.creativeId) ?? "" }), allow: "GET, HEAD, OPTIONS" },
);
