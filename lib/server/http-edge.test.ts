import http from "node:http";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { duplicateCredentialHeader, httpEdgeLimits, installHttpEdge } from "./http-edge.mjs";

describe("duplicateCredentialHeader", () => {
  it("finds a second Authorization header in any letter case, and nothing else", () => {
    expect(duplicateCredentialHeader(["Host", "x", "Authorization", "Bearer a", "authorization", "Bearer b"])).toBe("authorization");
    expect(duplicateCredentialHeader(["Authorization", "Bearer a", "Cookie", "a=1", "Cookie", "b=2"])).toBeNull();
    expect(duplicateCredentialHeader([])).toBeNull();
  });
});

describe("httpEdgeLimits", () => {
  it("uses the defaults, or the variables when they are positive integers", () => {
    expect(httpEdgeLimits({})).toEqual({
      headersTimeout: 15_000,
      requestTimeout: 3_600_000,
      idleTimeout: 60_000,
      maxHeaderSize: 16_384,
      connectionsCheckingInterval: 1_000,
    });
    const custom = httpEdgeLimits({
      HTTP_HEADERS_TIMEOUT_MS: "500",
      HTTP_REQUEST_TIMEOUT_MS: "100",
      HTTP_IDLE_TIMEOUT_MS: "x",
      HTTP_MAX_HEADER_BYTES: "32768",
    });
    expect(custom).toEqual({ headersTimeout: 500, requestTimeout: 501, idleTimeout: 60_000, maxHeaderSize: 32_768, connectionsCheckingInterval: 500 });
  });
});

describe("installHttpEdge", () => {
  it("gives TCP servers the timeouts and the guard, and leaves unix-socket servers without deadlines", async () => {
    installHttpEdge({ HTTP_HEADERS_TIMEOUT_MS: "1234", HTTP_IDLE_TIMEOUT_MS: "4321" });
    const tcp = http.createServer((_req, res) => res.end("ok"));
    expect(tcp.headersTimeout).toBe(1234);
    expect(tcp.timeout).toBe(4321);
    await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
    const { port } = tcp.address() as { port: number };
    const res = await new Promise<http.IncomingMessage>((resolve) => {
      const req = http.request(
        {
          port,
          host: "127.0.0.1",
          headers: [
            ["Authorization", "Bearer a"],
            ["Authorization", "Bearer b"],
          ] as never,
        },
        resolve,
      );
      req.end();
    });
    expect(res.statusCode).toBe(400);
    tcp.close();

    const unix = http.createServer((_req, res) => res.end("ok"));
    await new Promise<void>((r) => unix.listen(path.join(os.tmpdir(), `edge-${process.pid}.sock`), r));
    expect(unix.timeout).toBe(0);
    expect(unix.requestTimeout).toBe(0);
    unix.close();
  });
});
