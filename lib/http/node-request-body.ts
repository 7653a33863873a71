import type { Readable } from "node:stream";
import { requestContext } from "@/lib/observability/request-context";

/**
 * The body of the request being served as the Node stream it arrives on, when nothing has read it
 * yet; null otherwise (the caller then reads `request.body`). Next.js hands route handlers a web
 * Request whose body is a byte stream pulled from the Node request one chunk at a time, and turning
 * that back into a Node stream for a parser costs two adapters, a copy and several promises per
 * 64 KB chunk: for a 25 MB upload about a third of the service's CPU on the request (docs/performance.md).
 */
export function nodeRequestBody(request: Request): Readable | null {
  const incoming = requestContext.getStore()?.incoming;
  if (!incoming || request.bodyUsed || !request.body) return null;
  // Only the Node request this Request was made from, and only untouched: no byte read, not flowing, not ended.
  if (incoming.method !== request.method) return null;
  if ((incoming.headers["content-type"] ?? null) !== request.headers.get("content-type")) return null;
  if (incoming.url === undefined || !incoming.url.startsWith(new URL(request.url).pathname)) return null;
  if (incoming.readableDidRead || incoming.readableFlowing !== null || incoming.readableEnded || incoming.destroyed) return null;
  return incoming;
}
