import { describe, expect, it } from "vitest";
import { admin, api, createMemberKey, createTenant } from "../helpers/fixtures";

function expectEnvelope(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
  expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
}

describe("GET /api/v1/me", () => {
  it("returns the Account of the key's creator", async () => {
    const tenant = await createTenant();
    const res = await api(tenant.key)("/api/v1/me");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account: {
        id: tenant.ownerUserId,
        name: expect.any(String),
        email: expect.stringContaining("@"),
        plan: "pro",
        credits: expect.any(Number),
        trialEndsAt: null,
      },
    });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
  });

  it("shows the member who created the key, with credits only for owners", async () => {
    const tenant = await createTenant();
    const editor = await createMemberKey(tenant, { role: "editor" });
    const res = await api(editor.key)("/api/v1/me");
    expect(res.status).toBe(200);
    expect(res.body.account.id).toBe(editor.userId);
    expect(res.body.account.credits).toBeNull();
  });
});

describe("authentication", () => {
  it("answers 401 without a key, with a malformed header and with an unknown key", async () => {
    expectEnvelope(await api(null)("/api/v1/me"), 401, "unauthorized");
    expectEnvelope(await api(null)("/api/v1/me", { headers: { Authorization: "Basic abc" } }), 401, "unauthorized");
    expectEnvelope(await api("adl_doesnotexist0000000000000000000")("/api/v1/me"), 401, "unauthorized");
    expectEnvelope(await api("sk_live_other_service")("/api/v1/me"), 401, "unauthorized");
  });

  it("applies a change of the creator's role on the very next request", async () => {
    const tenant = await createTenant();
    const email = `promoted-${Date.now()}@example.com`;
    const { userId } = await admin(["member", "add", "--workspace", tenant.workspaceId, "--email", email, "--role", "editor"]);
    const { key } = await admin(["key", "create", "--workspace", tenant.workspaceId, "--user", userId]);
    for (let i = 0; i < 3; i++) expect((await api(key)("/api/v1/me")).body.account.credits).toBeNull();
    await admin(["member", "add", "--workspace", tenant.workspaceId, "--email", email, "--role", "owner"]);
    expect((await api(key)("/api/v1/me")).body.account.credits).toEqual(expect.any(Number));
  });

  it("stops accepting a key on the very next request after it is revoked", async () => {
    const tenant = await createTenant();
    for (let i = 0; i < 3; i++) expect((await api(tenant.key)("/api/v1/me")).status).toBe(200);
    await admin(["key", "revoke", "--id", tenant.keyId]);
    expectEnvelope(await api(tenant.key)("/api/v1/me"), 401, "unauthorized");
  });
});

describe("plan, workspace state and two-factor", () => {
  it("answers 402 subscription_required without a paid plan, and serves again once on one", async () => {
    const tenant = await createTenant({ plan: "none" });
    expectEnvelope(await api(tenant.key)("/api/v1/me"), 402, "subscription_required");
    await admin(["plan", "set", "--workspace", tenant.workspaceId, "--plan", "pro"]);
    expect((await api(tenant.key)("/api/v1/me")).status).toBe(200);
    await admin(["plan", "set", "--workspace", tenant.workspaceId, "--plan", "none"]);
    expectEnvelope(await api(tenant.key)("/api/v1/me"), 402, "subscription_required");
  });

  it("answers 409 workspace_changed once the key's workspace is archived", async () => {
    const tenant = await createTenant();
    await admin(["workspace", "archive", "--workspace", tenant.workspaceId]);
    expectEnvelope(await api(tenant.key)("/api/v1/me"), 409, "workspace_changed");
  });

  it("answers 403 two_factor_required when the workspace requires it and the creator has none", async () => {
    const tenant = await createTenant();
    await admin(["workspace", "two-factor", "--workspace", tenant.workspaceId, "--permissions", "account.read"]);
    const res = await api(tenant.key)("/api/v1/me");
    expectEnvelope(res, 403, "two_factor_required");
    expect(res.body.error.message).toContain("account.read");
    await admin(["workspace", "two-factor", "--workspace", tenant.workspaceId, "--permissions", ""]);
    expect((await api(tenant.key)("/api/v1/me")).status).toBe(200);
  });
});

describe("errors outside routes", () => {
  it("answers unknown API paths with 404 in the envelope", async () => {
    const tenant = await createTenant();
    expectEnvelope(await api(tenant.key)("/api/v1/does-not-exist"), 404, "not_found");
  });

  it("answers unsupported methods with 405 naming the allowed ones", async () => {
    const tenant = await createTenant();
    const res = await api(tenant.key)("/api/v1/me", { method: "DELETE" });
    expectEnvelope(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toBe("GET");
  });
});
