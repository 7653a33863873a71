import { defineService } from "@/lib/services";
import { subscribe } from "node:diagnostics_channel";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { REQUEST_ID_HEADER } from "@/lib/http/responses";
import { log } from "@/lib/log";
import { metrics } from "@/lib/observability/metrics";
import { type RequestContext, requestContext } from "@/lib/observability/request-context";
import { routeLabel } from "@/lib/observability/route-label";
import { refuseDotSegments } from "./dot-segments";

/**
 * Hooks the Node HTTP server under Next.js (through diagnostics channels, before Next.js sees a
 * request): every request gets its id (the `X-Request-Id` answer header, and the context every
 * log line written while serving it carries), is counted and timed for the metrics, and is logged
 * once at its end. Request-level code needs nothing: `newRequestId()` returns the id given here.
 */
const STARTED = Symbol("adloom.startedAt");
interface Started {
  at: bigint;
  context: RequestContext;
  /** Body bytes the connection delivered so far (counted as the HTTP parser hands them over). */
  bodyBytes: number;
}
type Timed = IncomingMessage & { [STARTED]?: Started };

const observed = defineService("observability.http-server", () => ({ installed: false }));
const wrapped = new WeakSet<Server>();
/** Whether a server listens on a unix socket, asked once per server: `server.address()` costs ~10 µs a call. */
const onUnixSocket = new WeakMap<Server, boolean>();

function listensOnUnixSocket(server: Server): boolean {
  let unix = onUnixSocket.get(server);
  if (unix === undefined) onUnixSocket.set(server, (unix = typeof server.address() === "string"));
  return unix;
}

/**
 * Runs the server's request listeners (Next.js's) inside the request's context, so everything they
 * do, and every promise they await, sees the request's id. Done on the first request a server
 * sees, before it emits "request": the listeners are read at emit time.
 */
function runListenersInRequestContext(server: Server): void {
  if (wrapped.has(server)) return;
  wrapped.add(server);
  const listeners = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  for (const listener of listeners) {
    server.on("request", (req: Timed, res: ServerResponse) => {
      const started = req[STARTED];
      if (!started) return listener.call(server, req, res);
      if (res.headersSent || refuseDotSegments(req, res)) return;
      requestContext.run(started.context, () => listener.call(server, req, res));
    });
  }
}

export function observeHttpServer(): void {
  if (observed().installed) return;
  observed().installed = true;

  subscribe("http.server.request.start", (message) => {
    const { request, response, server } = message as { request: Timed; response: ServerResponse; server: Server };
    if (listensOnUnixSocket(server)) return; // the operator CLI's unix socket
    const requestId = `req_${randomUUID().replace(/-/g, "")}`;
    const started: Started = { at: process.hrtime.bigint(), context: { requestId, incoming: request }, bodyBytes: 0 };
    request[STARTED] = started;
    countBodyBytes(request, started);
    response.setHeader(REQUEST_ID_HEADER, requestId);
    response.once("close", () => {
      if (!response.writableFinished) logAborted(request, response, started);
      // Work the request started (timers, job wake-ups) keeps its context: it must not keep the request too.
      started.context.incoming = undefined;
    });
    runListenersInRequestContext(server);
  });

  subscribe("http.server.response.finish", (message) => {
    const { request, response } = message as { request: Timed; response: ServerResponse };
    const started = request[STARTED];
    if (!started) return;
    const seconds = Number(process.hrtime.bigint() - started.at) / 1e9;
    const method = request.method ?? "GET";
    const route = routeLabel(request.url ?? "/");
    const m = metrics();
    m.httpRequests.inc({ method, route, status: String(response.statusCode) });
    m.httpDuration.observe({ method, route }, seconds);
    requestContext.run(started.context, () => log.info("request", { method, route, status: response.statusCode, ms: Math.round(seconds * 1000) }));
  });
}

/**
 * Counts the body as Node's HTTP parser pushes it into the request (the parser hands the body over
 * only after this channel's message, so every byte is seen), without reading it: the route still
 * consumes the stream as it would.
 */
function countBodyBytes(request: IncomingMessage, started: Started): void {
  const push = request.push;
  request.push = function countedPush(this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding) {
    if (chunk && typeof (chunk as Buffer).length === "number") started.bodyBytes += (chunk as Buffer).length;
    return push.call(this, chunk, encoding);
  };
}

/**
 * The access line of a request whose client went away before the answer was complete (the
 * connection closed mid-body or mid-answer). Its handler may still fail reading the body; the
 * context's `aborted` flag tells the error envelope not to report that as our failure.
 * `bytesReceived`: the body bytes that arrived; `contentLength`: what the client promised.
 */
function logAborted(request: IncomingMessage, response: ServerResponse, started: Started): void {
  started.context.aborted = true;
  const seconds = Number(process.hrtime.bigint() - started.at) / 1e9;
  const method = request.method ?? "GET";
  const route = routeLabel(request.url ?? "/");
  const declared = request.headers["content-length"];
  metrics().httpRequests.inc({ method, route, status: "aborted" });
  requestContext.run(started.context, () =>
    log.info("request aborted", {
      method,
      route,
      bytesReceived: started.bodyBytes,
      contentLength: declared === undefined ? null : Number(declared),
      bytesSent: response.socket?.bytesWritten ?? null,
      status: response.headersSent ? response.statusCode : null,
      ms: Math.round(seconds * 1000),
    }),
  );
}
