import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "@/lib/webhooks/url-policy";
import { S3Source } from "./s3";

/**
 * The bucket's endpoint passes the address policy on every connection the SDK opens, not only when
 * the connection was saved: a host name that DNS later points at a refused address reaches nothing.
 * A plain HTTP server stands in for the bucket (HeadBucket answered 200, each connection closed).
 */
describe("S3 source: the address policy on every connection", () => {
  let server: http.Server;
  let port = 0;
  const seen: { method: string; host: string | undefined }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ method: req.method ?? "", host: req.headers.host });
      res.writeHead(200, { Connection: "close", "Content-Length": "0" }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const sourceWith = (allowPrivate: boolean, resolver: Resolver) =>
    new S3Source(
      { bucket: "creatives", region: "us-east-1", endpoint: `http://storage.example.test:${port}`, forcePathStyle: true },
      { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" },
      { allowPrivate, resolver },
    );

  it("connects to the address the policy allows, keeping the endpoint's host name", async () => {
    const before = seen.length;
    const source = sourceWith(true, async () => [{ address: "127.0.0.1", family: 4 }]);
    await source.verify();
    source.close();
    expect(seen.slice(before)).toEqual([{ method: "HEAD", host: `storage.example.test:${port}` }]);
  });

  it("refuses an endpoint whose host answers a refused address, before any request", async () => {
    const before = seen.length;
    const source = sourceWith(false, async () => [{ address: "127.0.0.1", family: 4 }]);
    await expect(source.verify()).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/127\.0\.0\.1.*not a public address/) });
    source.close();
    expect(seen.length).toBe(before);
  });

  it("checks again when DNS changes its answer: the new connection is refused", async () => {
    const before = seen.length;
    const answers = ["127.0.0.1", "169.254.169.254"];
    let lookups = 0;
    const source = sourceWith(true, async () => [{ address: answers[Math.min(lookups++, 1)]!, family: 4 }]);
    await source.verify();
    await expect(source.verify()).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/169\.254\.169\.254.*link-local/) });
    source.close();
    expect(seen.length - before).toBe(1);
    expect(lookups).toBeGreaterThanOrEqual(2);
  });
});
