import { describe, expect, inject, it } from "vitest";
import { admin, api, createTenant } from "../helpers/fixtures";
import { jsonBody, rawRequest, requestHead } from "../helpers/raw-http";
import { callTool, readyCreative } from "../tools/helpers";
import { cookieHeader, signIn } from "../dashboard/session";
import { filePart, makeImage, postUploads } from "../uploads/helpers";

function expectRefusal(res: { status: number; body: any }, code: "invalid_request" | "invalid_input", field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.message).toContain(field);
}

/** JSON text with a raw lone surrogate escape, which JSON.stringify would not produce from a test's string literal. */
const withLoneSurrogate = (json: string) => json.replace("LONE", "\\ud800");

describe("NUL bytes and unpaired surrogates are refused at the edge, naming the field", () => {
  it("in path ids", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    expectRefusal(await call("/api/v1/uploads/a%00b"), "invalid_request", "id");
    expectRefusal(await call("/api/v1/uploads/a%00b", { method: "POST" }), "invalid_request", "id");
    expectRefusal(await call("/api/v1/uploads/a%00b", { method: "DELETE" }), "invalid_request", "id");
    expectRefusal(await call("/api/v1/creatives/a%00b/copy"), "invalid_request", "id");
    expectRefusal(await call("/api/v1/creatives/a%00b/copy", { method: "POST", json: {} }), "invalid_request", "id");
    expectRefusal(await call("/api/v1/webhooks/deliveries/%00", { method: "POST" }), "invalid_request", "id");
    expectRefusal(await call("/api/v1/tools/a%00b", { method: "POST", json: {} }), "invalid_request", "name");
    expectRefusal(await call("/api/media/%00"), "invalid_request", "id");
    expectRefusal(await call("/api/media/a%00b/preview"), "invalid_request", "id");
  });

  it("in query parameters", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    expectRefusal(await call("/api/v1/webhooks/deliveries?eventId=a%00b"), "invalid_request", "eventId");
    expectRefusal(await call("/api/v1/uploads?cursor=%00"), "invalid_request", "cursor");
    expectRefusal(await call("/api/media/crt_x?download=a%00b.png"), "invalid_request", "download");
  });

  it("in JSON bodies: copy text fields, DELETE /creatives ids, including unpaired surrogates", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    const { creativeId } = await readyCreative(tenant.key);
    expectRefusal(await call(`/api/v1/creatives/${creativeId}/copy`, { method: "POST", json: { headline: "a\u0000b" } }), "invalid_request", "headline");
    expectRefusal(
      await call(`/api/v1/creatives/${creativeId}/copy`, { method: "POST", json: { primaryText: "ok", label: "x\u0000" } }),
      "invalid_request",
      "label",
    );
    const lone = await call(`/api/v1/creatives/${creativeId}/copy`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: withLoneSurrogate('{"description":"broken LONE text"}'),
    });
    expectRefusal(lone, "invalid_request", "description");
    expectRefusal(await call("/api/v1/creatives", { method: "DELETE", json: { ids: [creativeId, "a\u0000b"] } }), "invalid_request", "ids[1]");
    expectRefusal(await call(`/api/v1/creatives/${creativeId}/copy`, { method: "DELETE", json: { id: "\u0000" } }), "invalid_request", "id");
    // Property names too.
    expectRefusal(await call(`/api/v1/creatives/${creativeId}/copy`, { method: "POST", json: { "head\u0000line": "x" } }), "invalid_request", "head");
    // Nothing was written: the creative has no copy, and it was not deleted.
    const copies = await call(`/api/v1/creatives/${creativeId}/copy`);
    expect(copies.body.copies).toEqual([]);
  });

  it("in tool arguments, as invalid_input naming the field", async () => {
    const tenant = await createTenant();
    expectRefusal(await callTool(tenant.key, "get_upload", { id: "a\u0000b" }), "invalid_input", "id");
    const res = await callTool(tenant.key, "get_upload", { id: "a\u0000b" });
    expect(res.body.error.message).toMatch(/^Invalid input:/);
    const lone = await api(tenant.key)("/api/v1/tools/get_upload", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: withLoneSurrogate('{"id":"upl_LONE"}'),
    });
    expectRefusal(lone, "invalid_input", "id");
    expectRefusal(await callTool(tenant.key, "create_folder", { name: "x\u0000" }), "invalid_input", "name");
  });

  it("over MCP, a tool argument with a NUL never reaches the database", async () => {
    const tenant = await createTenant();
    const res = await fetch(`${inject("baseUrl")}/api/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tenant.key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_upload", arguments: { id: "a\u0000b" } } }),
    });
    expect(res.status).toBeLessThan(500);
    expect(await res.text()).toContain("id");
  });

  it("over MCP, deep nesting and NUL bytes anywhere in the message are refused, never a 500", async () => {
    const tenant = await createTenant();
    const deep = "[".repeat(5000) + '"x"' + "]".repeat(5000);
    const bodies = [
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_creatives","arguments":{"extra":${deep}}}}`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_creatives","arguments":{}},"extra":${deep}}`,
      '{"jsonrpc":"2.0","id":"a\u0000","method":"tools/li\u0000st"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_\ud800upload","arguments":{}}}',
    ];
    for (const body of bodies) {
      const res = await fetch(`${inject("baseUrl")}/api/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${tenant.key}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body,
      });
      expect(res.status, `${body.slice(0, 80)}: ${await res.clone().text()}`).toBeLessThan(500);
    }
  });

  it("deep nesting and unknown tool names with strange bytes are a 400, never a 500", async () => {
    const tenant = await createTenant();
    // Written as text: JSON.stringify itself overflows the stack on values this deep.
    const deep = "[".repeat(5000) + '"x"' + "]".repeat(5000);
    const raw = (path: string, method: string, body: string) => api(tenant.key)(path, { method, headers: { "Content-Type": "application/json" }, body });
    const res = await raw("/api/v1/tools/list_creatives", "POST", `{"limit":10,"extra":${deep}}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_input");
    const rest = await raw("/api/v1/creatives", "DELETE", `{"ids":${deep}}`);
    expect(rest.status).toBe(400);
  });

  it("percent-encodings that do not decode are a 400 or 404, never a 500", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    for (const path of ["/api/v1/uploads/%E0%A4%A", "/api/v1/uploads/%ED%A0%80", "/api/media/%ED%A0%80", "/api/v1/tools/%ED%A0%80"]) {
      const res = await call(path, path.includes("tools") ? { method: "POST", json: {} } : {});
      expect([400, 404], `${path}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
    }
  });
});

describe("headers we read", () => {
  it("an over-long or control-character Authorization is 401, an over-long Idempotency-Key 400", async () => {
    const tenant = await createTenant();
    const long = await api(null)("/api/v1/me", { headers: { Authorization: `Bearer adl_${"x".repeat(8_000)}` } });
    expect(long.status).toBe(401);
    const idem = await api(tenant.key)("/api/v1/creatives", { method: "DELETE", json: { ids: ["crt_x"] }, headers: { "Idempotency-Key": "k".repeat(201) } });
    expect(idem.status).toBe(400);
    const host = new URL(inject("baseUrl")).host;
    const raw = await rawRequest(inject("baseUrl"), [
      requestHead("POST", "/api/v1/tools/list_creatives", host, [
        ["Authorization", `Bearer ${tenant.key}`],
        ["Idempotency-Key", "key-\u00ff\u00fe"],
        ["Content-Type", "application/json"],
        ["Content-Length", "2"],
      ]),
      "{}",
    ]);
    expect(raw.status).toBeLessThan(500);
  });

  it("a workspace cookie that does not decode, or holds a NUL, is ignored rather than failing the request", async () => {
    const email = `cookie-${Date.now()}@example.com`;
    await admin(["workspace", "create", "--name", "Cookie", "--plan", "pro", "--owner-email", email]);
    await admin(["user", "password", "--email", email, "--password", "a long enough password"]);
    const { jar } = await signIn(email, "a long enough password");
    for (const value of ["%E0%A4%A", "ws_%00x", "%ED%A0%80"]) {
      const res = await fetch(`${inject("baseUrl")}/api/v1/uploads`, { headers: { Cookie: `${cookieHeader(jar)}; adloom-workspace=${value}` } });
      expect(res.status, `adloom-workspace=${value}: ${await res.clone().text()}`).toBe(200);
    }
  });
});

describe("over-long strings", () => {
  it("ids over 100 characters are a 400 on every REST id, path or body", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    const long = "crt_" + "x".repeat(97);
    expect((await call(`/api/v1/creatives/${long}/copy`)).status).toBe(400);
    expect((await call(`/api/v1/creatives/${long}/copy`, { method: "DELETE", json: { id: long } })).status).toBe(400);
    expect((await call("/api/v1/creatives", { method: "DELETE", json: { ids: [long] } })).status).toBe(400);
    expect((await call(`/api/v1/uploads/${long}`)).status).toBe(400);
  });

  it("a 1 MB string in a JSON field is a 400 naming the field, not a 500", async () => {
    const tenant = await createTenant();
    const { creativeId } = await readyCreative(tenant.key);
    const res = await api(tenant.key)(`/api/v1/creatives/${creativeId}/copy`, { method: "POST", json: { headline: "h".repeat(1_000_000) } });
    expect(res.status).toBe(400);
    const tool = await callTool(tenant.key, "create_folder", { name: "n".repeat(900_000) });
    expect(tool.status).toBe(400);
    expect(jsonBody({ body: JSON.stringify(tool.body) } as never).error.message).toContain("name");
  });
});

describe("a 1 KB Unicode file name", () => {
  it("comes back shortened to 255 code points between characters, its extension kept", async () => {
    const tenant = await createTenant();
    const raw = "🇫🇷👨‍👩‍👧‍👦e\u0301".repeat(40) + ".png"; // flags, ZWJ families, combining accents
    expect(Buffer.byteLength(raw)).toBeGreaterThan(1000);
    const res = await postUploads(tenant.key, [filePart(raw, "image/png", await makeImage("png"))]);
    expect(res.status).toBe(201);
    const upload = (await api(tenant.key)(`/api/v1/uploads/${res.body.uploads[0].id}`)).body.upload;
    const name: string = upload.fileName;
    expect(Array.from(name).length).toBeLessThanOrEqual(255);
    expect(name.endsWith(".png")).toBe(true);
    const graphemes = (s: string) => Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(s), (g) => g.segment);
    const stem = graphemes(name.slice(0, -4));
    expect(stem.length).toBeGreaterThan(10);
    expect(graphemes(raw.normalize("NFC")).slice(0, stem.length)).toEqual(stem);
  });
});
