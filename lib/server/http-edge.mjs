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
        ...options,
      },
      listener ? guardRequests(listener) : undefined,
    );
    server.setTimeout(limits.idleTimeout);
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
