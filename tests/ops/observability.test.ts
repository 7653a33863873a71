import net from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import { finishedUpload, uploadIds } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { sendAdminCommand } from "@/lib/admin/socket-client";
import { signIn } from "../dashboard/session";
import { startServer, type TestServer } from "../helpers/server";
import { startReceiver, type Receiver } from "../webhooks/helpers/receiver";
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "@/lib/observability/security-headers";

const TOKEN = "metrics-token-0123456789abcdef";
const METRICS_PATH = "/api/ops/metrics";

describe("metrics, logs and readiness (own server with METRICS_TOKEN)", () => {
  let server: TestServer;
  let tenant: Tenant;
  let receiver: Receiver;
  beforeAll(async () => {
    server = await startServer({ env: { METRICS_TOKEN: TOKEN, METRICS_PATH, LOG_LEVEL: "info" } });
    tenant = await createTenant({ dataDir: server.dataDir });
    receiver = await startReceiver();
  }, 180_000);
  afterAll(async () => {
    await receiver?.close();
    await server?.stop();
  });

  const scrape = (token?: string) => fetch(server.url + METRICS_PATH, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

  it("serves Prometheus metrics at METRICS_PATH only to the token's holder", async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape("not-the-token-at-all")).status).toBe(401);
    expect((await fetch(server.url + "/api/metrics")).status).toBe(404); // the default path is not served when another is configured

    const call = api(tenant.key, server.url);
    for (let i = 0; i < 3; i++) expect((await call("/api/v1/me")).status).toBe(200);
    expect((await call("/api/v1/uploads/upl_doesnotexist0000000")).status).toBe(404);
    const [id] = await uploadIds(tenant.key, [{ name: "metrics.png", type: "image/png", bytes: await pngImage(20, 20) }], { baseUrl: server.url });
    expect((await finishedUpload(tenant.key, id!, 60_000, server.url)).status).toBe("completed");
    expect((await call("/api/v1/webhooks", { method: "PUT", json: { url: receiver.url } })).status).toBeLessThan(300);
    expect((await call("/api/v1/webhooks/test", { method: "POST", json: {} })).status).toBeLessThan(300);
    await receiver.waitFor(1);

    const res = await scrape(TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
    expect(value(/^adloom_http_requests_total\{method="GET",route="\/api\/v1\/me",status="200"\} (\d+)/m)).toBeGreaterThanOrEqual(3);
    expect(value(/^adloom_http_requests_total\{method="GET",route="\/api\/v1\/uploads\/:id",status="404"\} (\d+)/m)).toBe(1);
    expect(value(/^adloom_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/me"\} (\d+)/m)).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(/^adloom_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/v1\/me"\} \d+/m);
    // The upload shows completed before its run ends (the creative's import and thumbnails are later steps).
    await expect
      .poll(async () => /^adloom_job_runs_total\{function="[^"]*upload[^"]*",outcome="completed"\} [1-9]/m.test(await (await scrape(TOKEN)).text()))
      .toBe(true);
    await expect.poll(async () => /^adloom_webhook_attempts_total\{outcome="succeeded"\} [1-9]/m.test(await (await scrape(TOKEN)).text())).toBe(true);
    expect(text).toMatch(/^adloom_job_queue_depth\{state="(due|running|scheduled)"\} \d+/m);
    expect(text).toMatch(/^adloom_process_cpu_seconds_total /m);
  }, 120_000);

  it("writes one JSON log line per request carrying the id the response names", async () => {
    const res = await fetch(server.url + "/api/v1/me", { headers: { Authorization: `Bearer ${tenant.key}` } });
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    await expect
      .poll(() =>
        server
          .output()
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l))
          .find((e) => e.requestId === requestId),
      )
      .toMatchObject({ level: "info", msg: "request", method: "GET", route: "/api/v1/me", status: 200, ms: expect.any(Number), time: expect.any(String) });
    // Pages get request ids too.
    expect((await fetch(server.url + "/sign-in")).headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("sends an API answer with its length, and streams one to a client that leaves early without a warning in the log", async () => {
    const auth = { Authorization: `Bearer ${tenant.key}` };
    const me = await fetch(server.url + "/api/v1/me", { headers: auth });
    expect(Number(me.headers.get("content-length"))).toBe(Buffer.byteLength(await me.text()));
    const head = await fetch(server.url + "/api/v1/me", { method: "HEAD", headers: auth });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    // Each streamed answer once tripped Node's listener-leak warning (stream.pipeline's listeners on top of Next's).
    for (let i = 0; i < 3; i++) {
      const leaving = new AbortController();
      const stream = await fetch(server.url + "/api/v1/events/stream", { headers: auth, signal: leaving.signal });
      const { value } = await stream.body!.getReader().read();
      expect(new TextDecoder().decode(value)).toContain(": connected");
      leaving.abort();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(server.output()).not.toMatch(/MaxListenersExceededWarning/);
  });

  it("logs a request whose client goes away mid-body as an aborted request (method, route, bytes), not as our failure", async () => {
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const body = '{"limit":';
    socket.write(
      `POST /api/v1/tools/list_creatives HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${tenant.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n${body}`,
    );
    await new Promise((r) => setTimeout(r, 500));
    socket.destroy();
    const lines = () =>
      server
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l));
    await expect
      .poll(() => lines().find((e) => e.msg === "request aborted" && e.route?.startsWith("/api/v1/tools")), { timeout: 10_000 })
      .toMatchObject({ level: "info", method: "POST", bytesReceived: body.length, contentLength: 1000, requestId: expect.stringMatching(/^req_/) });
    await new Promise((r) => setTimeout(r, 500));
    expect(lines().filter((e) => e.msg === "unhandled error")).toEqual([]);
  });

  // A wrong password is an answer to the visitor, not a server fault: the server log stays quiet (issue 17). Here
  // rather than in a file of its own, which started a server of its own only for LOG_LEVEL=info.
  it("a wrong password at sign-in writes no stack trace to the log", async () => {
    const email = `log-${Date.now()}@example.com`;
    const created = await sendAdminCommand(server.dataDir, ["workspace", "create", "--name", "Log", "--owner-email", email]);
    expect(created.ok).toBe(true);
    expect((await sendAdminCommand(server.dataDir, ["user", "password", "--email", email, "--password", "correct horse battery"])).ok).toBe(true);
    const before = server.output().length;
    const wrong = await signIn(email, "not the password", "", server.url);
    expect(wrong.signedIn).toBe(false);
    const right = await signIn(email, "correct horse battery", "", server.url);
    expect(right.signedIn).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const logged = server.output().slice(before);
    expect(logged).not.toMatch(/CredentialsSignin|\n\s+at /);
  });

  it("readiness checks the database, the migrations and the job runner; liveness stays simple", async () => {
    const ready = await fetch(server.url + "/api/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, checks: { database: true, migrations: true, runner: true, accepting: true } });
    expect((await fetch(server.url + "/api/health")).status).toBe(200);
  });
});

describe("security headers", () => {
  const base = () => inject("baseUrl");

  function expectStaticHeaders(res: Response) {
    for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) expect(res.headers.get(name), name).toBe(value);
  }

  it("every page has a nonce CSP that matches its scripts, fresh per response", async () => {
    const nonces: string[] = [];
    for (const path of ["/", "/sign-in", "/sign-up", "/sign-in"]) {
      const res = await fetch(base() + path);
      expect(res.status, path).toBe(200);
      expectStaticHeaders(res);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(csp)?.[1];
      expect(nonce, path).toBeDefined();
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
      nonces.push(nonce!);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it("API answers, media and the OpenAPI document carry the headers and a CSP that allows nothing", async () => {
    const tenant = await createTenant();
    for (const [path, auth] of [
      ["/api/v1/me", true],
      ["/api/v1/me", false],
      ["/api/health", false],
      ["/api/nothing-here", false],
      ["/docs/openapi.json", false],
      ["/api/media/crv_doesnotexist", true],
    ] as const) {
      const res = await fetch(base() + path, { headers: auth ? { Authorization: `Bearer ${tenant.key}` } : {} });
      await res.arrayBuffer();
      expectStaticHeaders(res);
      expect(res.headers.get("content-security-policy"), path).toBe(API_CONTENT_SECURITY_POLICY);
    }
  });

  it("serves the icons a browser asks for on its own (a 404 for /favicon.ico is a console error on the page)", async () => {
    const favicon = await fetch(base() + "/favicon.ico");
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("content-type")).toBe("image/x-icon");
    expectStaticHeaders(favicon);
    const ico = Buffer.from(await favicon.arrayBuffer());
    expect([...ico.subarray(0, 4)], "ICO header: reserved 0, type 1").toEqual([0, 0, 1, 0]);
    expect(ico.readUInt16LE(4), "images in the icon").toBeGreaterThan(0);

    const svg = await fetch(base() + "/icon.svg");
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toContain("image/svg+xml");
    await svg.arrayBuffer();

    const html = await (await fetch(base() + "/sign-in")).text();
    expect(html).toMatch(/<link rel="icon" href="\/favicon\.ico/);
    expect(html).toMatch(/<link rel="icon" href="\/icon\.svg/);
  });

  it("a signed-out dashboard redirect carries them too", async () => {
    const res = await fetch(base() + "/dashboard", { redirect: "manual" });
    expectStaticHeaders(res);
  });
});
