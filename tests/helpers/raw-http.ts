import net from "node:net";

export interface RawResponse {
  /** 0 when the server closed the connection without answering. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the end of the answer (or the connection). */
  elapsedMs: number;
  /** True when the timeout passed before any answer or close. */
  timedOut: boolean;
}

export interface RawRequestOptions {
  /** Give up after this long (the test's "no hang" bound). */
  timeoutMs?: number;
  /** Sent one after another, waiting `delayMs` between them (slow clients). */
  delayMs?: number;
}

/**
 * Sends bytes exactly as given over a plain TCP connection and reads the answer. fetch
 * cannot send what a broken or hostile client sends (duplicate Authorization headers,
 * bodies shorter than promised, raw control bytes in headers), so these tests speak HTTP/1.1 themselves.
 */
export function rawRequest(baseUrl: string, chunks: (Buffer | string)[], options: RawRequestOptions = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise((resolve) => {
    const started = Date.now();
    const received: Buffer[] = [];
    let settled = false;
    const socket = net.connect(Number(port), hostname);
    const finish = (timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(Buffer.concat(received)), elapsedMs: Date.now() - started, timedOut });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on("data", (d: Buffer) => {
      received.push(d);
      if (isComplete(Buffer.concat(received))) finish(false);
    });
    socket.on("error", () => finish(false));
    socket.on("close", () => finish(false));
    socket.on("connect", async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (settled || socket.destroyed) return;
        if (i > 0 && options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        if (settled || socket.destroyed) return;
        socket.write(typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk);
      }
    });
  });
}

function splitHead(raw: Buffer): { head: string; body: Buffer } | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return null;
  return { head: raw.subarray(0, end).toString("latin1"), body: raw.subarray(end + 4) };
}

function isComplete(raw: Buffer): boolean {
  const parts = splitHead(raw);
  if (!parts) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(parts.head);
  if (length) return parts.body.length >= Number(length[1]);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(parts.head)) return parts.body.includes("\r\n0\r\n\r\n") || parts.body.subarray(0, 5).toString() === "0\r\n\r\n";
  return false;
}

function parseResponse(raw: Buffer): { status: number; headers: Record<string, string>; body: string } {
  const parts = splitHead(raw);
  if (!parts) return { status: 0, headers: {}, body: "" };
  const [statusLine, ...lines] = parts.head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = parts.body;
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) body = dechunk(body);
  return { status: Number(statusLine!.split(" ")[1] ?? 0), headers, body: body.toString("utf8") };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString(), 16);
    if (!size) break;
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** A complete HTTP/1.1 request head (Connection: close, so the server ends the exchange). */
export function requestHead(method: string, path: string, host: string, headers: [string, string][]): string {
  return [`${method} ${path} HTTP/1.1`, `Host: ${host}`, "Connection: close", ...headers.map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n");
}

/** The JSON body of a raw answer, or undefined. */
export function jsonBody(res: RawResponse): any {
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
}
