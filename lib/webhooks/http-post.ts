import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
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
 * (a custom lookup answers every resolution with it, so DNS rebinding cannot redirect it), TLS
 * still verifies the certificate against the URL's host name, redirects are not followed, and
 * the answer must start within the timeout. Never throws.
 */
export function postPinned(target: PinnedTarget, headers: Record<string, string>, body: string, options: PostOptions = {}): Promise<PostOutcome> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? RESPONSE_EXCERPT_BYTES;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinnedLookup: LookupFunction = (_hostname, opts, callback) => {
    if (opts.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const transport = target.url.protocol === "https:" ? https : http;

  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    let status: number | null = null;
    const chunks: Buffer[] = [];
    const excerpt = () => Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
    const finish = (outcome: Omit<PostOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const req = transport.request(
      target.url,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: pinnedLookup,
        agent: false,
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
        res.on("end", done);
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
