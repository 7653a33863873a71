import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { jsonBody, rawRequest, requestHead } from "../helpers/raw-http";
import { startServer, type TestServer } from "../helpers/server";
import { storedFiles } from "../uploads/helpers";
import { until } from "../helpers/wait";
import { paced } from "../../scripts/test-pace.mjs";

/**
 * A server of its own with short deadlines, so each kind of slow client is cut off within
 * seconds (the defaults are 15 s for headers, 30 s of body silence, 30 s for a JSON body). The deadlines are the
 * product's and stay as they are; how long the test waits for the cut is stretched by the run's pace.
 */
const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: "1500",
  BODY_IDLE_TIMEOUT_MS: "1000",
  JSON_BODY_TIMEOUT_MS: "2500",
  HTTP_IDLE_TIMEOUT_MS: "5000",
};

describe("slow and stalled clients are cut off", () => {
  let server: TestServer;
  let tenant: Tenant;
  let host: string;

  beforeAll(async () => {
    server = await startServer({ env: LIMITS });
    tenant = await createTenant({ dataDir: server.dataDir });
    host = new URL(server.url).host;
  }, 120_000);
  afterAll(() => server?.stop());

  it("headers dripped a byte at a time are cut off after the header timeout", async () => {
    const head = requestHead("GET", "/api/v1/me", host, [["Authorization", `Bearer ${tenant.key}`]]);
    const res = await rawRequest(server.url, [...head], { delayMs: 200, timeoutMs: paced(6_000) });
    expect(res.timedOut).toBe(false);
    expect(res.elapsedMs).toBeLessThan(paced(4_000));
    expect(res.status === 0 || res.status === 408).toBe(true);
  });

  it("a JSON body that stops arriving gets a 400 after the idle deadline", async () => {
    const res = await rawRequest(
      server.url,
      [
        requestHead("POST", "/api/v1/tools/list_creatives", host, [
          ["Authorization", `Bearer ${tenant.key}`],
          ["Content-Type", "application/json"],
          ["Content-Length", "100"],
        ]),
        '{"limit":',
      ],
      { timeoutMs: paced(5_000) },
    );
    expect(res.timedOut).toBe(false);
    expect(res.status).toBe(400);
    expect(jsonBody(res).error.message).toMatch(/timed out/);
  });

  it("a JSON body dripped fast enough to stay under the idle deadline is still cut at the total deadline", async () => {
    const body = '{"limit":10}'.padEnd(60, " ");
    const res = await rawRequest(
      server.url,
      [
        requestHead("PUT", "/api/v1/webhooks", host, [
          ["Authorization", `Bearer ${tenant.key}`],
          ["Content-Type", "application/json"],
          ["Content-Length", String(body.length)],
        ]),
        ...body,
      ],
      { delayMs: 300, timeoutMs: paced(8_000) },
    );
    expect(res.timedOut).toBe(false);
    expect(res.status).toBe(400);
    expect(jsonBody(res).error.message).toMatch(/not complete after/);
    expect(res.elapsedMs).toBeLessThan(paced(5_000));
  });

  it("an upload whose body stalls mid-file gets a 400 after the idle deadline and stores nothing", async () => {
    const B = "slowBoundary";
    const start = `--${B}\r\nContent-Disposition: form-data; name="files"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n`;
    const res = await rawRequest(
      server.url,
      [
        requestHead("POST", "/api/v1/uploads", host, [
          ["Authorization", `Bearer ${tenant.key}`],
          ["Content-Type", `multipart/form-data; boundary=${B}`],
          ["Content-Length", "100000"],
        ]),
        start,
      ],
      { timeoutMs: paced(5_000) },
    );
    expect(res.timedOut).toBe(false);
    expect(res.status === 400 || res.status === 0).toBe(true);
    if (res.status === 400) expect(jsonBody(res).error.message).toMatch(/timed out/);
    // The partial file is removed when the server gives up on the request: wait for that, then check.
    await until(async () => storedFiles(tenant.workspaceId, server.dataDir).length === 0, "the partial upload to be removed", 10_000);
    expect(storedFiles(tenant.workspaceId, server.dataDir)).toEqual([]);
    const list = await fetch(`${server.url}/api/v1/uploads`, { headers: { Authorization: `Bearer ${tenant.key}` } });
    expect((await list.json()).uploads).toEqual([]);
  });

  // A body already whole when the handler runs is taken from the Node request's buffer at once (lib/http/node-request-body.ts);
  // one still arriving is streamed. Each delivery below must be read whole and alike: the tool's validation names what it found.
  it("a JSON body is read whole however it arrives: with the headers, after them, chunked, or larger than a socket read", async () => {
    const call = (extraHeaders: [string, string][], parts: (head: string) => string[], delayMs = 0) =>
      rawRequest(
        server.url,
        parts(
          requestHead("POST", "/api/v1/tools/list_creatives", host, [
            ["Authorization", `Bearer ${tenant.key}`],
            ["Content-Type", "application/json"],
            ...extraHeaders,
          ]),
        ),
        { delayMs, timeoutMs: paced(8_000) },
      );
    const sized = (body: string): [string, string][] => [["Content-Length", String(Buffer.byteLength(body))]];
    const chunked = (body: string) => `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;

    const ok = '{"limit":1}';
    for (const res of [
      await call(sized(ok), (head) => [head + ok]),
      await call(sized(ok), (head) => [head, ok], 300),
      await call([["Transfer-Encoding", "chunked"]], (head) => [head + chunked(ok)]),
    ]) {
      expect(res.status, res.body).toBe(200);
      expect(jsonBody(res).result.creatives).toEqual([]);
    }

    const wrong = '{"limit":"ten"}';
    for (const res of [await call(sized(wrong), (head) => [head + wrong]), await call(sized(wrong), (head) => [head, wrong], 300)]) {
      expect(res.status).toBe(400);
      expect(jsonBody(res).error.message).toMatch(/^Invalid input: limit/);
    }

    // 600 KB in one write reaches the server in several reads; the unknown key at its end must still be seen.
    const large = `{"limit":1,"padding":"${"x".repeat(600_000)}","lastKey":true}`;
    const res = await call(sized(large), (head) => [head + large]);
    expect(res.status).toBe(400);
    expect(jsonBody(res).error.message).toMatch(/lastKey/);

    const broken = '{"limit":';
    const cut = await call(sized(broken), (head) => [head + broken]);
    expect(cut.status).toBe(400);
    expect(jsonBody(cut).error.message).toMatch(/not valid JSON/);
  });

  it("a connection that opens and sends nothing is closed", async () => {
    const res = await rawRequest(server.url, [], { timeoutMs: paced(8_000) });
    expect(res.timedOut).toBe(false);
  });
});
