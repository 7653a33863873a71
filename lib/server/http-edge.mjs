// The HTTP server's own limits and the one check that must see raw headers. `next start` creates
// its server itself, so scripts/http-edge-preload.mjs installs this before Next loads (plain
// JavaScript: it runs before any TypeScript loader). The variables are validated at start by lib/config.ts.
import http from "node:http";
import { randomUUID } from "node:crypto";

import { HTTP_EDGE_DEFAULTS } from "../http-edge-defaults.mjs";

export { HTTP_EDGE_DEFAULTS };

/**
 * @param {Record<string, string | undefined>} env
 * @param {keyof typeof HTTP_EDGE_DEFAULTS} name
 */
function envMs(env, name) {
  const n = Number(env[name]);
  return Number.isInteger(n) && n > 0 ? n : HTTP_EDGE_DEFAULTS[name];
}

/**
 * The server timeouts for an environment.
 * @param {Record<string, string | undefined>} [env]
 */
export function httpEdgeLimits(env = process.env) {
  const headersTimeout = envMs(env, "HTTP_HEADERS_TIMEOUT_MS");
  const requestTimeout = Math.max(envMs(env, "HTTP_REQUEST_TIMEOUT_MS"), headersTimeout + 1);
  return {
    headersTimeout,
    requestTimeout,
    idleTimeout: envMs(env, "HTTP_IDLE_TIMEOUT_MS"),
    maxHeaderSize: envMs(env, "HTTP_MAX_HEADER_BYTES"),
    // Node checks the two timeouts above on this interval (default 30 s, too coarse for them).
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
}

/** Headers that carry credentials: more than one of them makes "who is calling" a guess. */
const SINGLE_CREDENTIAL_HEADERS = new Set(["authorization"]);

/**
 * The credential header sent more than once, if any (Node keeps only the first in `req.headers`).
 * @param {string[]} rawHeaders
 * @returns {string | null}
 */
export function duplicateCredentialHeader(rawHeaders) {
  const seen = new Set();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!SINGLE_CREDENTIAL_HEADERS.has(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

function refuse(res, message) {
  const body = JSON.stringify({ error: { code: "invalid_request", message } });
  res.writeHead(400, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-Id": `req_${randomUUID().replace(/-/g, "")}`,
    Connection: "close",
  });
  res.end(body);
}

/** What a request Node's parser refused is answered with, by the parser's error code. */
const PARSER_REFUSALS = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", (limit) => `The request head (request line and headers) is larger than ${limit} bytes`],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "Payload Too Large", () => "The chunk extensions of the request body are too large"],
};

/**
 * After refusing a request, the rest of what the client sends is read and dropped, up to these bounds,
 * before the connection closes: closing with unread bytes makes the kernel reset the connection, and
 * the reset usually reaches the client before it reads the answer (docs/operations.md).
 */
export const REFUSED_REQUEST_DRAIN = { maxBytes: 4 * 1024 * 1024, maxMs: 5_000 };

function errorResponse(status, reason, message) {
  const body = JSON.stringify({ error: { code: "invalid_request", message } });
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Cache-Control: no-store\r\n" +
    `X-Request-Id: req_${randomUUID().replace(/-/g, "")}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

/**
 * Answers a request the HTTP parser refused (Node calls this for each parse error and socket error of a
 * connection, once per chunk while the parser stays failed). A malformed or oversized request gets its
 * status in the error envelope, then the connection is half-closed and drained within
 * REFUSED_REQUEST_DRAIN, so the client reads the answer instead of a reset. Socket errors and the head
 * timeout (a slow client: nothing worth waiting for) close at once, as Node does.
 * @param {number} maxHeaderSize
 */
export function answerClientError(maxHeaderSize) {
  /** Refused connections still draining, with their bytesRead when refused. */
  const draining = new WeakMap();
  /** @param {import("node:net").Socket} socket */
  const drainedTooMuch = (socket) => socket.bytesRead - draining.get(socket) > REFUSED_REQUEST_DRAIN.maxBytes;
  /**
   * @param {Error & { code?: string }} err
   * @param {import("node:net").Socket} socket
   */
  return function onClientError(err, socket) {
    if (draining.has(socket)) {
      if (drainedTooMuch(socket)) socket.destroy();
      return;
    }
    draining.set(socket, socket.bytesRead);
    const code = err.code ?? "";
    const inFlight = /** @type {{ _httpMessage?: { _headerSent?: boolean } }} */ (socket)._httpMessage;
    const canAnswer = socket.writable && !inFlight?._headerSent;
    if (!canAnswer || !code.startsWith("HPE_")) {
      if (canAnswer && code === "ERR_HTTP_REQUEST_TIMEOUT") socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
      socket.destroy();
      return;
    }
    const [status, reason, message] = PARSER_REFUSALS[code] ?? [400, "Bad Request", () => "The request is not valid HTTP/1.1"];
    socket.end(errorResponse(status, reason, message(maxHeaderSize)));
    const close = () => socket.destroy();
    const timer = setTimeout(close, REFUSED_REQUEST_DRAIN.maxMs);
    timer.unref();
    socket.on("close", () => clearTimeout(timer));
    // The client finished sending (or gave up): nothing unread is left to cause a reset.
    socket.on("end", close);
    // Depending on where the parser failed, the rest arrives as data events or goes to the failed parser,
    // which calls this again per chunk; either way bytesRead counts it.
    socket.on("data", () => {
      if (drainedTooMuch(socket)) close();
    });
    socket.resume();
  };
}

/** Wraps a request listener with the raw-header check. */
export function guardRequests(listener) {
  return function guarded(req, res) {
    const duplicate = duplicateCredentialHeader(req.rawHeaders);
    if (duplicate) {
      req.resume();
      return refuse(
        res,
        `Ambiguous credentials: the ${duplicate === "authorization" ? "Authorization" : duplicate} header was sent more than once; send exactly one`,
      );
    }
    return listener(req, res);
  };
}

let installed = false;

/**
 * Makes every HTTP server this process creates apply the limits and the guard.
 * @param {Record<string, string | undefined>} [env]
 */
export function installHttpEdge(env = process.env) {
  if (installed) return;
  installed = true;
  const limits = httpEdgeLimits(env);
  const createServer = http.createServer;
  http.createServer = function createLimitedServer(optionsOrListener, maybeListener) {
    const options = typeof optionsOrListener === "function" || optionsOrListener === undefined ? {} : optionsOrListener;
    const listener = typeof optionsOrListener === "function" ? optionsOrListener : maybeListener;
    const server = createServer.call(
      http,
      {
        headersTimeout: limits.headersTimeout,
        requestTimeout: limits.requestTimeout,
        connectionsCheckingInterval: limits.connectionsCheckingInterval,
        maxHeaderSize: limits.maxHeaderSize,
        ...options,
      },
      listener ? guardRequests(listener) : undefined,
    );
    server.setTimeout(limits.idleTimeout);
    // Between requests too (Node's default is 5 s). A keep-alive client that reuses a connection just as
    // the server closes it gets ECONNRESET; clients that read `Keep-Alive: timeout=` reuse within it,
    // and the rest rarely sit idle this long, so the race becomes rare rather than routine.
    server.keepAliveTimeout = limits.idleTimeout;
    server.on("clientError", answerClientError(options.maxHeaderSize ?? limits.maxHeaderSize));
    // Client-facing servers only: the operator CLI's unix socket (lib/admin/socket.ts) runs commands
    // that may take minutes without a byte on the wire, and only the owner can reach it.
    server.once("listening", () => {
      if (typeof server.address() !== "string") return;
      server.setTimeout(0);
      server.requestTimeout = 0;
    });
    return server;
  };
}
