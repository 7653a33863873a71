import { AdloomError } from "./errors.js";
import { canStreamRequestBodies } from "./multipart.js";

export interface ClientOptions {
  /** An Adloom API key (`adl_...`). */
  apiKey: string;
  /** Where the service runs; default http://localhost:3000. */
  baseUrl?: string | undefined;
  /** Retries after 429, 5xx and network failures (only for reads and idempotency-keyed writes); default 3. */
  maxRetries?: number | undefined;
  /** Longest wait between retries, in ms (a longer Retry-After gives up instead); default 60 000. */
  maxRetryDelayMs?: number | undefined;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch | undefined;
  /** Extra headers on every request (e.g. User-Agent). */
  headers?: Record<string, string> | undefined;
  /**
   * Send upload bodies as a stream, read as the network takes them (default: yes, except in
   * browsers, which cannot stream a request body over HTTP/1.1: there the body is one Blob).
   */
  streamUploads?: boolean | undefined;
}

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | undefined;
  query?: Record<string, string | number | undefined | null> | undefined;
  /** A JSON body. */
  json?: unknown;
  /** A body factory: called again for every attempt (so a stream body must be re-creatable to be retried). */
  body?: (() => BodyInit) | undefined;
  headers?: Record<string, string> | undefined;
  /** For mutating requests: replays instead of repeating. Generated when not given. */
  idempotencyKey?: string | undefined;
  /** Whether the body can be sent again (false for one-shot streams). */
  replayable?: boolean | undefined;
  /** Also accept these statuses as success (e.g. 304). */
  acceptStatus?: number[] | undefined;
  signal?: AbortSignal | undefined;
}

export interface RawResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A random idempotency key (Web Crypto: Node 20 and browsers). */
export function newIdempotencyKey(): string {
  return `sdk_${globalThis.crypto.randomUUID()}`;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** HTTP with the API's conventions: Bearer key, JSON, error envelope -> AdloomError, retries. */
export class Transport {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;
  readonly streamUploads: boolean;

  constructor(options: ClientOptions) {
    if (!options.apiKey) throw new AdloomError({ code: "unauthorized", status: 0, message: "No API key: pass apiKey (adl_...)" });
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? "http://localhost:3000").replace(/\/+$/, "");
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.headers = options.headers ?? {};
    this.streamUploads = options.streamUploads ?? canStreamRequestBodies();
  }

  /** The headers every request carries (the key, and any the client was given): for requests made by other HTTP stacks (tus). */
  authHeaders(): Record<string, string> {
    return { ...this.headers, Authorization: `Bearer ${this.apiKey}` };
  }

  url(path: string, query?: RequestOptions["query"]): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Sends a request, retrying 429 (after Retry-After) and 5xx/network failures when repeating it is safe. */
  async request<T>(path: string, options: RequestOptions = {}): Promise<RawResponse<T>> {
    const method = options.method ?? "GET";
    const headers: Record<string, string> = { Accept: "application/json", ...this.headers, ...options.headers, Authorization: `Bearer ${this.apiKey}` };
    if (MUTATING.has(method)) headers["Idempotency-Key"] = options.idempotencyKey ?? newIdempotencyKey();
    if (options.json !== undefined) headers["Content-Type"] = "application/json";
    // Reads are safe to repeat; writes are too, thanks to their idempotency key, unless the body was a one-shot stream.
    const safeToRepeat = options.replayable ?? true;

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        const body = options.json !== undefined ? JSON.stringify(options.json) : options.body?.();
        const init: RequestInit & { duplex?: "half" } = { method, headers };
        if (body !== undefined) init.body = body;
        if (options.signal) init.signal = options.signal;
        // Streamed request bodies need half duplex (Node's fetch and the Fetch standard).
        if (typeof ReadableStream !== "undefined" && body instanceof ReadableStream) init.duplex = "half";
        response = await this.fetchImpl(this.url(path, options.query), init);
      } catch (err) {
        if (options.signal?.aborted) throw err;
        if (safeToRepeat && attempt < this.maxRetries) {
          await sleep(this.backoff(attempt), options.signal);
          continue;
        }
        throw new AdloomError({ code: "network_error", status: 0, message: `Could not reach ${this.baseUrl}: ${(err as Error).message}` });
      }

      if (response.ok || options.acceptStatus?.includes(response.status)) {
        const text = response.status === 204 || response.status === 304 ? "" : await response.text();
        return { status: response.status, headers: response.headers, data: (text ? JSON.parse(text) : undefined) as T };
      }
      const error = AdloomError.fromResponse(response.status, response.headers, await readJson(response));
      // A 409 with Retry-After is the same write still running under its Idempotency-Key: repeating it gets that write's answer.
      const retryable = response.status === 429 || response.status >= 500 || (response.status === 409 && error.retryAfter !== null);
      if (retryable && safeToRepeat && attempt < this.maxRetries) {
        const delay = error.retryAfter !== null ? error.retryAfter * 1000 : this.backoff(attempt);
        if (delay <= this.maxRetryDelayMs) {
          await sleep(delay, options.signal);
          continue;
        }
      }
      throw error;
    }
  }

  /** Opens a long-lived GET (an event stream): the answer's body is the caller's to read; errors as AdloomError, no retries. */
  async open(
    path: string,
    options: { query?: RequestOptions["query"]; headers?: Record<string, string>; signal?: AbortSignal | undefined } = {},
  ): Promise<Response> {
    const init: RequestInit = { headers: { ...this.headers, ...options.headers, Authorization: `Bearer ${this.apiKey}` } };
    if (options.signal) init.signal = options.signal;
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path, options.query), init);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      throw new AdloomError({ code: "network_error", status: 0, message: `Could not reach ${this.baseUrl}: ${(err as Error).message}` });
    }
    if (!response.ok) throw AdloomError.fromResponse(response.status, response.headers, await readJson(response));
    return response;
  }

  private backoff(attempt: number): number {
    return Math.min(this.maxRetryDelayMs, 250 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { message: text.slice(0, 500) };
  }
}
