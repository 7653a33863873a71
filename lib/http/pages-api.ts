import type { IncomingMessage, ServerResponse } from "node:http";
import { handle, type OperationDef, type RouteHandler } from "./operation";
import { PagesApiRequest } from "./pages-api-request";
import { errorResponse, jsonBodyText, newRequestId, toErrorResponse } from "./responses";

type PagesRequest = IncomingMessage & { query?: Record<string, string | string[] | undefined> };

function hasBody(req: IncomingMessage): boolean {
  if (req.method === "GET" || req.method === "HEAD") return false;
  const length = req.headers["content-length"];
  return length !== undefined ? length !== "0" : req.headers["transfer-encoding"] !== undefined;
}

/**
 * The web Request for a Node request: its headers, URL, body (made a web body only when asked for,
 * lib/http/pages-api-request.ts) and a signal that aborts when the client goes away before the answer is complete.
 */
export function webRequestOf(req: PagesRequest, res?: ServerResponse): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  let signal: AbortSignal | undefined;
  if (res) {
    const controller = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    signal = controller.signal;
  }
  return new PagesApiRequest(url, { method: req.method, headers, signal }, hasBody(req) ? req : null);
}

/** Writes a Web Response to Node's ServerResponse: a JSON answer at once, any other body streamed (none for HEAD). */
export async function sendWebResponse(req: PagesRequest, res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  const text = jsonBodyText(response);
  if (text !== undefined) {
    // Set here: Next's compression writes the head itself before Node could count the body (it drops it again when it compresses).
    res.setHeader("Content-Length", Buffer.byteLength(text));
    res.end(req.method === "HEAD" ? undefined : text);
    return;
  }
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  await writeBody(response.body, res);
}

/**
 * Streams a web body into Node's response, waiting for `drain` when the client reads slowly; a client
 * that goes away cancels the body (closing a file, ending an event stream), also one gone before the body
 * starts. One `close` listener:
 * Next.js and the HTTP observer already hold several on each response, and `stream.pipeline` adds enough
 * more to trip Node's leak warning on every streamed answer.
 */
async function writeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  let closed = false;
  let wake: (() => void) | undefined;
  const onDrain = () => wake?.();
  const onClose = () => {
    closed = true;
    wake?.();
    reader.cancel().catch(() => undefined);
  };
  res.on("drain", onDrain);
  res.once("close", onClose);
  // A client gone while the handler worked has already closed the response: no `close` or `drain` comes any
  // more, and a write would wait for `drain` forever with the file held open.
  if (res.destroyed) onClose();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || closed) break;
      if (!res.write(value)) await new Promise<void>((resolve) => (wake = resolve));
      if (closed) break;
    }
    if (!closed) res.end();
  } catch {
    // The body failed midway (a file read error): the client sees the connection cut, not a short answer that looks whole.
    res.destroy();
  } finally {
    res.off("drain", onDrain);
    res.off("close", onClose);
  }
}

/**
 * Serves a web route handler from a Pages API route. Pages API routes get Node's request and response
 * as they are, where an app route handler costs Next.js about twice a bare Pages API route's work per
 * request (docs/performance.md, round 8), and can send `Content-Length` (Next strips it from app
 * routes' answers), which media downloads need. The page file must also export
 * `config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } }`.
 */
export function pagesApiHandler(
  route: RouteHandler,
  options: {
    /** The route's dynamic segments, from Next's parsed `req.query`. */
    paramsOf?: (req: PagesRequest) => Record<string, string>;
  } & (
    | /** The methods a preflight (OPTIONS) names; its Access-Control headers come from next.config.js. */ { allow: string }
    | /** Answers preflights itself (its own CORS rules). */ { preflight: (request: Request) => Response }
  ),
) {
  const paramsOf = options.paramsOf ?? (() => ({}));
  return async (req: PagesRequest, res: ServerResponse): Promise<void> => {
    let response: Response;
    try {
      if (req.method === "OPTIONS") {
        // A CORS preflight: 204, with the Access-Control headers from next.config.js unless the route answers it.
        response = "preflight" in options ? options.preflight(webRequestOf(req, res)) : new Response(null, { status: 204, headers: { Allow: options.allow } });
      } else {
        response = await route(webRequestOf(req, res), { params: Promise.resolve(paramsOf(req)) });
      }
    } catch (err) {
      response = toErrorResponse(err, newRequestId());
    }
    await sendWebResponse(req, res, response);
  };
}

/** Serves one GET operation from a Pages API route (the media downloads); `paramNames` are the route's dynamic segments. */
export function pagesApiRoute(operation: OperationDef<any, any, any, any>, paramNames: string[]) {
  const run = handle(operation);
  const getOnly: RouteHandler = (request, context) =>
    request.method === "GET" || request.method === "HEAD"
      ? run(request, context)
      : Promise.resolve(errorResponse("method_not_allowed", "Method not allowed; this path supports GET and HEAD", { Allow: "GET, HEAD" }));
  return pagesApiHandler(getOnly, {
    paramsOf: (req) => Object.fromEntries(paramNames.map((n) => [n, String(req.query?.[n] ?? "")])),
    allow: "GET, HEAD, OPTIONS",
  });
}
