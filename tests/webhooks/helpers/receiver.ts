import http from "node:http";
import type { AddressInfo } from "node:net";
import { paced } from "../../../scripts/test-pace.mjs";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body exactly as received. */
  body: string;
  /** Arrival time (ms since epoch). */
  at: number;
}

/** What the receiver answers: a status, optionally after a delay. */
export type Responder = (req: ReceivedRequest, index: number) => { status: number; delayMs?: number; body?: string };

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  respondWith(responder: Responder): void;
  /** Resolves once at least n requests arrived (matching the filter, if given). */
  waitFor(n: number, options?: { timeoutMs?: number; filter?: (r: ReceivedRequest) => boolean }): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP webhook receiver on loopback that records every request. */
export async function startReceiver(responder: Responder = () => ({ status: 200 }), port = 0): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let respond = responder;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      const index = requests.push(received) - 1;
      const { status, delayMs, body } = respond(received, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(status, { "Content-Type": "text/plain" });
        res.end(body ?? `status ${status}`);
      };
      if (delayMs) setTimeout(send, delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}/hooks`,
    port: actualPort,
    requests,
    respondWith: (r) => (respond = r),
    async waitFor(n, options = {}) {
      const deadline = Date.now() + paced(options.timeoutMs ?? 30_000);
      for (;;) {
        const matching = options.filter ? requests.filter(options.filter) : requests;
        if (matching.length >= n) return matching;
        if (Date.now() > deadline) throw new Error(`expected ${n} webhook requests, got ${matching.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
