import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { notFound } from "@/lib/errors";
import { mediaResponse } from "@/lib/http/media/serve-media";
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
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const request = new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), { method: req.method, headers });
  const response = await guestMediaResponse(req, request).catch((err: unknown) => toErrorResponse(err, newRequestId()));
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>), res).catch(() => undefined);
}
