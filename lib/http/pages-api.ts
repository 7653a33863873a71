import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { handle, type OperationDef } from "./operation";
import { errorResponse } from "./responses";

type PagesRequest = IncomingMessage & { query?: Record<string, string | string[] | undefined> };

/** The Web Request for a Pages API request (headers and URL; these routes read no body). */
export function webRequestOf(req: PagesRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), { method: req.method, headers });
}

/** Writes a Web Response to Node's ServerResponse, streaming its body (none for HEAD). */
export async function sendWebResponse(req: PagesRequest, res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  // A client that goes away mid-download ends the pipeline (and closes the file).
  await pipeline(Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>), res).catch(() => undefined);
}

/**
 * Serves a GET operation from a Pages API route, writing the Response to Node's
 * ServerResponse ourselves: app-route handlers cannot send `Content-Length` (Next strips
 * it from their responses), which media downloads need. The page file must also export
 * `config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } }`.
 */
export function pagesApiRoute(operation: OperationDef<any, any, any, any>, paramNames: string[]) {
  const run = handle(operation);
  return async (req: PagesRequest, res: ServerResponse): Promise<void> => {
    const request = webRequestOf(req);
    const params = Object.fromEntries(paramNames.map((n) => [n, String(req.query?.[n] ?? "")]));
    const response =
      req.method === "GET" || req.method === "HEAD"
        ? await run(request, { params: Promise.resolve(params) })
        : req.method === "OPTIONS" // a CORS preflight: the CORS headers come from next.config.js
          ? new Response(null, { status: 204, headers: { Allow: "GET, HEAD, OPTIONS" } })
          : errorResponse("method_not_allowed", "Method not allowed; this path supports GET and HEAD", { Allow: "GET, HEAD" });
    await sendWebResponse(req, res, response);
  };
}
