import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { defineService } from "@/lib/services";
import type { PinnedTarget } from "./url-policy";

export const DELIVERY_TIMEOUT_MS = 5000;
export const RESPONSE_EXCERPT_BYTES = 4096;

export interface PostOutcome {
  /** The HTTP status, or null when no response arrived. */
  status: number | null;
  /** The first bytes of the response body (UTF-8, possibly cut mid-character). */
  responseExcerpt: string | null;
  durationMs: number;
  /** Why the request failed before a status arrived (timeout, refused connection, TLS). */
  error: string | null;
}

export interface PostOptions {
  timeoutMs?: number;
  maxResponseBytes?: number;
}

/**
 * POSTs the body to the pinned target: the connection goes to the address that was checked
 * (a custom lookup answers every resolution with it, so DNS rebinding cannot redirect it; a
 * kept-alive connection is only reused for the same checked address, see pinnedAgent), TLS
 * still verifies the certificate against the URL's host name, redirects are not followed, and
 * the answer must start within the timeout. Never throws.
 */
export function postPinned(target: PinnedTarget, headers: Record<string, string>, body: string, options: PostOptions = {}): Promise<PostOutcome> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? RESPONSE_EXCERPT_BYTES;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const transport = target.url.protocol === "https:" ? https : http;
  const agent = pinnedAgent(target);

  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    let status: number | null = null;
    const chunks: Buffer[] = [];
    const excerpt = () => Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
    // `complete`: the response was read to its end, so the connection may serve another delivery
    // to the same checked address; otherwise it is closed.
    const finish = (outcome: Omit<PostOutcome, "durationMs">, complete = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!complete) req.destroy();
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const req = transport.request(
      target.url,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target),
        agent,
      },
      (res) => {
        status = res.statusCode ?? null;
        let size = 0;
        const done = () => finish({ status, responseExcerpt: excerpt(), error: null });
        res.on("data", (chunk: Buffer) => {
          if (size < maxBytes) chunks.push(chunk);
          size += chunk.length;
          if (size >= maxBytes) done();
        });
        res.on("end", () => finish({ status, responseExcerpt: excerpt(), error: null }, true));
        res.on("error", done);
        res.on("aborted", done);
      },
    );
    // A status that arrived in time counts even if the body is still trickling in.
    const timer = setTimeout(
      () =>
        status !== null
          ? finish({ status, responseExcerpt: excerpt(), error: null })
          : finish({ status: null, responseExcerpt: null, error: `No response within ${timeoutMs / 1000} seconds` }),
      timeoutMs,
    );
    req.on("error", (err: NodeJS.ErrnoException) => finish({ status: null, responseExcerpt: null, error: describeNetworkError(err) }));
    req.end(body);
  });
}

/** Answers every resolution with the checked address (so DNS cannot redirect the connection). */
export function pinnedLookup(target: PinnedTarget): LookupFunction {
  return (_hostname, opts, callback) => {
    if (opts.all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** How long an idle delivery connection is kept for reuse (short: far below usual server keep-alive timeouts). */
export const IDLE_CONNECTION_MS = 1000;
const MAX_AGENTS = 256;
/**
 * Idle connections kept per endpoint (checked target): as many as deliveries can be in flight at
 * once (lib/webhooks/first-attempts.ts), so a busy endpoint is served over a steady pool instead of
 * connections opened and closed per burst. No cap on open ones: a delivery never queues behind
 * another (its 5 s starts when it is sent).
 */
const FREE_CONNECTIONS_PER_ENDPOINT = 256;
/** The delivery agents of the process; stopping its services closes their idle connections. */
const deliveryAgents = defineService(
  "webhooks.delivery-agents",
  () => new Map<string, http.Agent>(),
  (agents) => {
    for (const agent of agents.values()) agent.destroy();
    agents.clear();
  },
);

/**
 * The keep-alive agent for one checked target: keyed by scheme, URL host and port, and the
 * checked address, with its lookup pinned to that address in the agent's own options (which
 * take precedence over a request's), so each pooled connection was opened to exactly the address
 * the URL policy approved for the delivery that uses it. Every delivery still resolves and checks
 * the URL first; a different answer selects a different agent.
 */
function pinnedAgent(target: PinnedTarget): http.Agent {
  const agents = deliveryAgents();
  const key = `${target.url.protocol}//${target.url.host}|${target.family}|${target.address}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // most recently used last
  } else {
    const options = {
      keepAlive: true,
      timeout: IDLE_CONNECTION_MS,
      maxFreeSockets: FREE_CONNECTIONS_PER_ENDPOINT,
      scheduling: "lifo" as const,
      lookup: pinnedLookup(target),
    };
    agent = target.url.protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    if (agents.size >= MAX_AGENTS) {
      const [oldestKey, oldest] = agents.entries().next().value as [string, http.Agent];
      agents.delete(oldestKey);
      // Idle connections close now; busy ones finish their delivery and close when idle.
      for (const sockets of Object.values(oldest.freeSockets)) for (const s of sockets ?? []) s.destroy();
    }
  }
  agents.set(key, agent);
  return agent;
}

function describeNetworkError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return "Connection refused";
    case "ECONNRESET":
      return "Connection reset by the receiver";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "Host unreachable";
    default:
      return err.code ? `${err.code}: ${err.message}` : err.message;
  }
}
