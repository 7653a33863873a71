import { defineService } from "@/lib/services";
import { subscribe } from "node:diagnostics_channel";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { REQUEST_ID_HEADER } from "@/lib/http/responses";
import { log } from "@/lib/log";
import { metrics } from "@/lib/observability/metrics";
import { requestContext } from "@/lib/observability/request-context";
import { routeLabel } from "@/lib/observability/route-label";

/**
 * Hooks the Node HTTP server under Next.js (through diagnostics channels, before Next.js sees a
 * request): every request gets its id (the `X-Request-Id` answer header, and the context every
 * log line written while serving it carries), is counted and timed for the metrics, and is logged
 * once at its end. Request-level code needs nothing: `newRequestId()` returns the id given here.
 */
const STARTED = Symbol("adloom.startedAt");
type Timed = IncomingMessage & { [STARTED]?: { at: bigint; requestId: string } };

const observed = defineService("observability.http-server", () => ({ installed: false }));
const wrapped = new WeakSet<Server>();

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
      requestContext.run({ requestId: started.requestId }, () => listener.call(server, req, res));
    });
  }
}

export function observeHttpServer(): void {
  if (observed().installed) return;
  observed().installed = true;

  subscribe("http.server.request.start", (message) => {
    const { request, response, server } = message as { request: Timed; response: ServerResponse; server: Server };
    if (typeof server.address() === "string") return; // the operator CLI's unix socket
    const requestId = `req_${randomUUID().replace(/-/g, "")}`;
    request[STARTED] = { at: process.hrtime.bigint(), requestId };
    response.setHeader(REQUEST_ID_HEADER, requestId);
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
    requestContext.run({ requestId: started.requestId }, () =>
      log.info("request", { method, route, status: response.statusCode, ms: Math.round(seconds * 1000) }),
    );
  });
}
