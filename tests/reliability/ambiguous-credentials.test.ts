import { describe, expect, inject, it } from "vitest";
import { admin, createTenant } from "../helpers/fixtures";
import { jsonBody, rawRequest, requestHead } from "../helpers/raw-http";
import { cookieHeader, signIn } from "../dashboard/session";

const PASSWORD = "a long enough password";

/** GET over a raw socket: fetch (undici) would merge two Authorization headers into one "a, b" value. */
function rawGet(path: string, headers: [string, string][]) {
  const base = inject("baseUrl");
  return rawRequest(base, [requestHead("GET", path, new URL(base).host, headers)], { timeoutMs: 5_000 });
}

function expectAmbiguous(res: Awaited<ReturnType<typeof rawGet>>) {
  expect(res.status, res.body).toBe(400);
  expect(jsonBody(res)).toEqual({ error: { code: "invalid_request", message: expect.stringMatching(/ambiguous|more than one/i) } });
}

/** A signed-in dashboard user (owner of a fresh workspace) with an API key of their own. */
async function signedInOwner() {
  const email = `ambig-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const { workspaceId, ownerUserId } = await admin(["workspace", "create", "--name", "Ambiguous", "--plan", "pro", "--owner-email", email]);
  await admin(["user", "password", "--email", email, "--password", PASSWORD]);
  const { key } = await admin(["key", "create", "--workspace", workspaceId, "--user", ownerUserId]);
  const { jar } = await signIn(email, PASSWORD);
  return { workspaceId, key, cookie: cookieHeader(jar) };
}

describe("ambiguous credentials are refused with 400", () => {
  it("a valid key followed by a second, garbage Authorization header", async () => {
    const tenant = await createTenant();
    expectAmbiguous(
      await rawGet("/api/v1/me", [
        ["Authorization", `Bearer ${tenant.key}`],
        ["Authorization", "Bearer garbage"],
      ]),
    );
    // The same key alone still works.
    expect((await rawGet("/api/v1/me", [["Authorization", `Bearer ${tenant.key}`]])).status).toBe(200);
  });

  it("two valid keys of different workspaces, on REST, tool calls, MCP and media", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const two: [string, string][] = [
      ["Authorization", `Bearer ${a.key}`],
      ["Authorization", `Bearer ${b.key}`],
    ];
    expectAmbiguous(await rawGet("/api/v1/me", two));
    expectAmbiguous(await rawGet("/api/v1/uploads", two));
    expectAmbiguous(await rawGet("/api/v1/tools", two));
    expectAmbiguous(await rawGet("/api/media/crt_anything", two));
    const base = inject("baseUrl");
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const mcp = await rawRequest(base, [
      requestHead("POST", "/api/mcp", new URL(base).host, [
        ...two,
        ["Content-Type", "application/json"],
        ["Accept", "application/json, text/event-stream"],
        ["Content-Length", String(body.length)],
      ]),
      body,
    ]);
    expect(mcp.status).toBe(400);
  });

  it("the same key twice is still ambiguous (a client bug worth surfacing)", async () => {
    const tenant = await createTenant();
    expectAmbiguous(
      await rawGet("/api/v1/me", [
        ["Authorization", `Bearer ${tenant.key}`],
        ["authorization", `Bearer ${tenant.key}`],
      ]),
    );
  });

  it("an API key and a session cookie of another user or workspace, on /api/v1", async () => {
    const dashboard = await signedInOwner();
    const other = await createTenant();
    expectAmbiguous(
      await rawGet("/api/v1/me", [
        ["Authorization", `Bearer ${other.key}`],
        ["Cookie", dashboard.cookie],
      ]),
    );
    expectAmbiguous(
      await rawGet("/api/v1/uploads", [
        ["Authorization", `Bearer ${other.key}`],
        ["Cookie", dashboard.cookie],
      ]),
    );
  });

  it("an API key and a session cookie that agree (same user, same workspace) are accepted", async () => {
    const dashboard = await signedInOwner();
    const res = await rawGet("/api/v1/uploads", [
      ["Authorization", `Bearer ${dashboard.key}`],
      ["Cookie", dashboard.cookie],
    ]);
    expect(res.status, res.body).toBe(200);
  });
});
