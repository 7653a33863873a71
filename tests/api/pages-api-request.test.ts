/**
 * The web Request a Pages API route hands our routes (lib/http/pages-api-request.ts) makes its web
 * body only when one is asked for. Over real HTTP: each way of reading a body gets every byte, a body
 * taken from the Node request reads as used, and a request without a body has none.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRequestBody } from "@/lib/http/node-request-body";
import { pagesApiHandler } from "@/lib/http/pages-api";
import { sendsBody } from "@/lib/http/pages-api-request";
import { readBodyText } from "@/lib/http/request-body";

type Reader = (request: Request) => Promise<Record<string, unknown>>;

const readers: Record<string, Reader> = {
  // What the API's JSON operations do: the body from Node's buffer when it is all there, streamed otherwise.
  "read-body-text": async (request) => {
    const text = await readBodyText(request);
    const again = await request.text().then(
      () => "read again",
      (err: Error) => err.name,
    );
    return { sendsBody: sendsBody(request), length: text.length, text: text.slice(0, 40), bodyUsed: request.bodyUsed, again };
  },
  json: async (request) => ({ json: await request.json(), bodyUsed: request.bodyUsed }),
  stream: async (request) => {
    let length = 0;
    const reader = request.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) length += chunk.value.byteLength;
    return { length, bodyUsed: request.bodyUsed };
  },
  // What multipart uploads do: the Node request itself, once.
  node: async (request) => {
    const first = nodeRequestBody(request);
    const second = nodeRequestBody(request);
    let length = 0;
    for await (const chunk of first!) length += (chunk as Buffer).byteLength;
    return { took: first !== null, tookAgain: second !== null, length, bodyUsed: request.bodyUsed };
  },
  none: async (request) => ({ sendsBody: sendsBody(request), body: request.body, text: await request.text(), bodyUsed: request.bodyUsed }),
};

const handler = pagesApiHandler(
  async (request) => {
    const mode = new URL(request.url).pathname.slice(1);
    return Response.json(await readers[mode]!(request));
  },
  { allow: "GET, POST" },
);

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** POSTs `parts` one at a time, `gapMs` apart: a body still arriving when the route reads it. */
function post(mode: string, parts: string[], { chunked = false, gapMs = 0 } = {}): Promise<Record<string, unknown>> {
  const length = parts.reduce((sum, p) => sum + Buffer.byteLength(p), 0);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/${mode}`,
      { method: "POST", headers: { "Content-Type": "application/json", ...(chunked ? {} : { "Content-Length": String(length) }) } },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${res.statusCode} ${text}`))));
      },
    );
    req.on("error", reject);
    void (async () => {
      for (const part of parts) {
        req.write(part);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
      req.end();
    })();
  });
}

const big = JSON.stringify({ pad: "x".repeat(300_000) });
const thirds = [big.slice(0, 100_000), big.slice(100_000, 200_000), big.slice(200_000)];

describe("a Pages API route's web Request", () => {
  it("hands a small JSON body that has arrived to readBodyText, and reads as used afterwards", async () => {
    expect(await post("read-body-text", ['{"name":"spring"}'])).toEqual({
      sendsBody: true,
      length: 17,
      text: '{"name":"spring"}',
      bodyUsed: true,
      again: "TypeError",
    });
  });

  it("streams a body still arriving into readBodyText, with or without Content-Length", async () => {
    for (const chunked of [false, true]) {
      const answer = await post("read-body-text", thirds, { chunked, gapMs: 30 });
      expect(answer).toMatchObject({ sendsBody: true, length: big.length, text: big.slice(0, 40), bodyUsed: true, again: "TypeError" });
    }
  });

  it("makes the web body when a route asks for one: json() and the stream get every byte", async () => {
    expect(await post("json", ['{"a":', "[1,2,3]}"], { gapMs: 20 })).toEqual({ json: { a: [1, 2, 3] }, bodyUsed: true });
    expect(await post("stream", thirds, { gapMs: 20 })).toEqual({ length: big.length, bodyUsed: true });
  });

  it("gives the Node request to one reader only, and then reads as used", async () => {
    expect(await post("node", thirds, { gapMs: 20 })).toEqual({ took: true, tookAgain: false, length: big.length, bodyUsed: true });
  });

  it("has no body for a GET", async () => {
    const res = await fetch(`${base}/none`);
    expect(await res.json()).toEqual({ sendsBody: false, body: null, text: "", bodyUsed: false });
  });
});
