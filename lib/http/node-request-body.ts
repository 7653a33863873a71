import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { requestContext } from "@/lib/observability/request-context";
import { PagesApiRequest } from "./pages-api-request";
import { urlOf } from "./request-url";

/**
 * The body of the request being served as the Node stream it arrives on, when nothing has read it
 * yet; null otherwise (the caller then reads `request.body`). A route's web Request carries the body as a
 * byte stream pulled from the Node request one chunk at a time (lib/http/pages-api.ts, and Next.js for app
 * routes), and turning that back into a Node stream for a parser costs two adapters, a copy and several
 * promises per 64 KB chunk: for a 25 MB upload about a third of the service's CPU on the request (docs/performance.md).
 */
export function nodeRequestBody(request: Request): Readable | null {
  const incoming = untouchedNodeBody(request);
  if (incoming) takenFrom(request);
  return incoming;
}

/** The Node request the body of `request` arrives on, while nothing has read a byte of it; null otherwise. */
function untouchedNodeBody(request: Request): IncomingMessage | null {
  let incoming: IncomingMessage | null | undefined;
  if (request instanceof PagesApiRequest) incoming = request.nodeBody;
  else {
    incoming = requestContext.getStore()?.incoming;
    if (!incoming || request.bodyUsed || !request.body) return null;
    // Only the Node request this Request was made from.
    if (incoming.method !== request.method) return null;
    if ((incoming.headers["content-type"] ?? null) !== request.headers.get("content-type")) return null;
    if (incoming.url === undefined || !incoming.url.startsWith(urlOf(request).pathname)) return null;
  }
  // Untouched: no byte read, not flowing, not ended.
  if (!incoming || incoming.readableDidRead || incoming.readableFlowing !== null || incoming.readableEnded || incoming.destroyed) return null;
  return incoming;
}

/** A Pages API request records that its body was taken (`bodyUsed`); Next's own requests cannot. */
function takenFrom(request: Request): void {
  if (request instanceof PagesApiRequest) request.markBodyTaken();
}

/**
 * The whole body of the request being served when it has already arrived with its headers (as a small
 * JSON body does), taken from the Node request's buffer at once; null when it is still arriving or the
 * Node request is not available (the caller then streams it). Bytes that are already here need no stream
 * adapter, promise or deadline timer: those were about 7% of a tool call's CPU (docs/performance.md, round 5).
 */
export function arrivedRequestBody(request: Request): Buffer | null {
  const incoming = untouchedNodeBody(request);
  if (!incoming) return null;
  // With Content-Length, whole once that many bytes wait in the buffer (`complete` was still false at this point on
  // kept-alive connections, with every byte buffered); a chunked body once `complete`.
  const declared = incoming.headers["content-length"];
  const whole = declared === undefined ? incoming.complete : incoming.readableLength >= Number(declared);
  if (!whole) return null;
  takenFrom(request);
  // One read() returns everything buffered; reading again (for the null that says "empty") would ask the socket for more.
  return (incoming.read() as Buffer | null) ?? Buffer.alloc(0);
}
