import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AdloomError } from "./errors.js";
import { Adloom } from "./index";

// The client's retry rules against a scripted HTTP server (a real socket, no mocked fetch).
let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function scripted(answers: { status: number; headers?: Record<string, string>; body: unknown }[]) {
  const seen: { method: string; key: string | undefined; body: string }[] = [];
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, key: req.headers["idempotency-key"] as string | undefined, body });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      res.writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}`, seen };
}

const busy = { status: 429, headers: { "Retry-After": "1" }, body: { error: { code: "rate_limited", message: "slow down" } } };
const crash = { status: 503, body: { error: { code: "upstream_busy", message: "try again" } } };

describe("client retries", () => {
  it("waits out Retry-After on 429 and then succeeds", async () => {
    const { baseUrl, seen } = await scripted([busy, { status: 200, body: { account: { id: "usr_1" } } }]);
    const started = Date.now();
    expect((await new Adloom({ apiKey: "adl_x", baseUrl }).account.get()).id).toBe("usr_1");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen).toHaveLength(2);
  });

  it("repeats a failed write with the same generated Idempotency-Key", async () => {
    const { baseUrl, seen } = await scripted([crash, crash, { status: 200, body: { result: { ok: true } } }]);
    expect(await new Adloom({ apiKey: "adl_x", baseUrl }).tools.call("delete_folder", { id: "fld_1" })).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
    expect(seen[0]!.key).toMatch(/^sdk_/);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    expect(new Set(seen.map((s) => s.body)).size).toBe(1);
  });

  it("repeats a write the server is still running under its key (409 with Retry-After), not a refused one", async () => {
    const inFlight = { status: 409, headers: { "Retry-After": "1" }, body: { error: { code: "conflict", message: "already being processed; retry later" } } };
    const { baseUrl, seen } = await scripted([inFlight, { status: 200, body: { result: { ok: true } } }]);
    expect(await new Adloom({ apiKey: "adl_x", baseUrl }).tools.call("delete_folder", { id: "fld_1" })).toEqual({ ok: true });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    const refused = await scripted([
      { status: 409, body: { error: { code: "conflict", message: "This Idempotency-Key was already used for a different request" } } },
    ]);
    const err = await new Adloom({ apiKey: "adl_x", baseUrl: refused.baseUrl }).tools.call("delete_folder", { id: "fld_1" }).catch((e) => e);
    expect(err).toMatchObject({ code: "conflict", status: 409 });
    expect(refused.seen).toHaveLength(1);
  });

  it("does not resend a one-shot stream, and gives up after maxRetries", async () => {
    const { baseUrl, seen } = await scripted([crash]);
    const adloom = new Adloom({ apiKey: "adl_x", baseUrl, maxRetries: 2 });
    const once = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]).stream();
    const err = await adloom.uploads.create([{ stream: once, name: "a.png" }]).catch((e) => e);
    expect(err).toBeInstanceOf(AdloomError);
    expect(err).toMatchObject({ code: "upstream_busy", status: 503 });
    expect(seen).toHaveLength(1);
    await adloom.account.get().catch(() => {});
    expect(seen).toHaveLength(1 + 3);
  });

  it("reads unknown error codes as tool_error and code-less errors by status", async () => {
    const { baseUrl } = await scripted([{ status: 400, body: { error: { code: "brand_new_code", message: "new" } } }]);
    const err = await new Adloom({ apiKey: "adl_x", baseUrl }).tools.call("x").catch((e) => e);
    expect(err).toMatchObject({ code: "tool_error", rawCode: "brand_new_code", status: 400, message: "new" });
    const bare = AdloomError.fromResponse(404, new Headers(), { message: "gone" });
    expect(bare).toMatchObject({ code: "not_found", message: "gone" });
  });
});

describe("resumable uploads", () => {
  it("a server that cannot be reached is a network_error, as for every other call", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((r) => closed.close(() => r()));
    const adloom = new Adloom({ apiKey: "adl_test", baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const failure = await adloom.uploads.createResumable({ data: Buffer.alloc(64), name: "clip.mp4" }, { retryDelays: [] }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AdloomError);
    expect(failure).toMatchObject({ code: "network_error", status: 0 });
  });
});
