import type { IncomingMessage, ServerResponse } from "node:http";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "@/lib/observability/security-headers";

/**
 * A path segment URL parsing treats as "this folder" or "the parent" (WHATWG URL: `.` and `..`,
 * also percent-encoded, `%2e%2e`, `.%2E`, …). Next.js parses the request target with `new URL`,
 * so `/api/v1/uploads/%2e%2e` becomes `/api/v1/` before any route sees it, and its trailing-slash
 * redirect then answers 308 to the parent path. No id or name here is ever such a segment, so the
 * request is refused before Next.js resolves it.
 */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The dot segment in a raw request target's path (backslashes split segments too, as URL parsing does), or null. */
export function dotSegmentOf(target: string): string | null {
  const path = target.split(/[?#]/, 1)[0]!;
  for (const segment of path.split(/[\\/]/)) if (DOT_SEGMENT.test(segment)) return segment;
  return null;
}

/** Answers 400 in the error envelope when the request target holds a dot segment; true when it did. */
export function refuseDotSegments(req: IncomingMessage, res: ServerResponse): boolean {
  const segment = dotSegmentOf(req.url ?? "/");
  if (segment === null) return false;
  req.resume();
  const body = JSON.stringify({
    error: {
      code: "invalid_request",
      message: `The request path holds the segment ${JSON.stringify(segment)}: "." and ".." (also percent-encoded) are not valid in any path here`,
    },
  });
  res.writeHead(400, {
    ...STATIC_SECURITY_HEADERS,
    "Content-Security-Policy": API_CONTENT_SECURITY_POLICY,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(body);
  return true;
}
