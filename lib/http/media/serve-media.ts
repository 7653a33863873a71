import { Readable } from "node:stream";
import { notFound } from "@/lib/errors";
import { json } from "../responses";
import { getStorage } from "@/lib/storage";
import { isNotModified, rangeStillApplies } from "./conditional";
import { attachmentDisposition } from "./content-disposition";
import type { CreativeMedia } from "@/lib/creatives/creative-media";
import { parseRange } from "./http-range";

/**
 * Streams stored media as an HTTP response: validators and 304, single byte ranges
 * (206/416) so browsers can seek in videos, and an optional attachment name.
 */
export async function mediaResponse(
  request: Request,
  media: CreativeMedia,
  options: { downloadName?: string | null; immutable?: boolean } = {},
): Promise<Response> {
  const storage = getStorage();
  const info = await storage.stat(media.storageKey);
  if (!info) throw notFound("Media");

  const headers = new Headers({
    "Content-Type": media.contentType,
    ETag: info.etag,
    "Last-Modified": info.lastModified.toUTCString(),
    "Accept-Ranges": "bytes",
    // The response depends on the caller's key: never shared caches, always revalidated;
    // no-transform keeps compression off (it would drop Content-Length and break ranges).
    // Content-addressed renditions (their URL changes with the bytes) are kept by the browser for a year.
    "Cache-Control": options.immutable ? "private, max-age=31536000, immutable, no-transform" : "private, no-cache, no-transform",
    "X-Content-Type-Options": "nosniff",
  });
  if (options.downloadName != null) headers.set("Content-Disposition", attachmentDisposition(options.downloadName, media.fileName));

  if (isNotModified(request.headers, info)) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }

  const range = rangeStillApplies(request.headers, info) ? parseRange(request.headers.get("range"), info.sizeBytes) : { kind: "full" as const };
  if (range.kind === "unsatisfiable") {
    return json({ error: { code: "invalid_request", message: `Range not satisfiable: the media is ${info.sizeBytes} bytes` } }, 416, {
      "Content-Range": `bytes */${info.sizeBytes}`,
      "Accept-Ranges": "bytes",
    });
  }

  const object = await storage.read(media.storageKey, range.kind === "partial" ? { range } : {});
  if (!object) throw notFound("Media");
  const body = request.method === "HEAD" ? null : (Readable.toWeb(object.stream) as ReadableStream<Uint8Array>);
  if (request.method === "HEAD") object.stream.destroy();
  if (range.kind === "partial") {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${info.sizeBytes}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(info.sizeBytes));
  return new Response(body, { status: 200, headers });
}
