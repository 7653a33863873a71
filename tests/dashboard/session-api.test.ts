import { describe, expect, it } from "vitest";
import { admin, api, createTenant } from "../helpers/fixtures";
import { cookieHeader, sessionFetch, signIn } from "./session";

const PASSWORD = "a long enough password";
let n = 0;
const email = () => `dash-${Date.now()}-${++n}@example.com`;

/** A workspace (trial unless told) whose owner can sign in with PASSWORD. */
async function ownerWithPassword(plan: "pro" | "none" = "none") {
  const ownerEmail = email();
  const { workspaceId, ownerUserId } = await admin(["workspace", "create", "--name", "Dash", "--plan", plan, "--owner-email", ownerEmail]);
  await admin(["user", "password", "--email", ownerEmail, "--password", PASSWORD]);
  return { workspaceId: workspaceId!, ownerUserId: ownerUserId!, email: ownerEmail };
}

describe("dashboard session on /api/v1", () => {
  it("a signed-in session reads /me of its active workspace, also on the trial where API keys get 402", async () => {
    const owner = await ownerWithPassword("none");
    const { jar, signedIn } = await signIn(owner.email, PASSWORD);
    expect(signedIn).toBe(true);
    const me = await sessionFetch(jar)("/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.account).toMatchObject({ id: owner.ownerUserId, email: owner.email, plan: null });
    expect(Date.parse(me.body.account.trialEndsAt)).toBeGreaterThan(Date.now() + 13 * 86_400_000);
  });

  it("a wrong password or a forged cookie gets no session", async () => {
    const owner = await ownerWithPassword();
    const wrong = await signIn(owner.email, "not the password");
    expect(wrong.signedIn).toBe(false);
    expect(wrong.location).toContain("code=invalid_credentials");
    const forged = await sessionFetch(new Map([["authjs.session-token", "eyJhbGciOiJkaXIifQ.forged"]]))("/api/v1/me");
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("unauthorized");
  });

  it("refuses cookie-authenticated mutations from other sites (CSRF), allows same-origin ones", async () => {
    const owner = await ownerWithPassword("pro");
    const { jar } = await signIn(owner.email, PASSWORD);
    const call = sessionFetch(jar);
    const crossSite = await call("/api/v1/creatives", { method: "DELETE", json: { ids: ["crv_x"] }, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.message).toMatch(/Cross-site/);
    const foreignOrigin = await call("/api/v1/creatives", {
      method: "DELETE",
      json: { ids: ["crv_x"] },
      headers: { "Sec-Fetch-Site": "", Origin: "https://evil.example" },
    });
    expect(foreignOrigin.status).toBe(403);
    const sameOrigin = await call("/api/v1/creatives", { method: "DELETE", json: { ids: ["crv_x"] } });
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.body).toEqual({ deleted: 0 });
    // The session cookie is never accepted from another site, reads included (other origins use Bearer keys, CORS).
    expect((await call("/api/v1/me", { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(403);
    expect((await call("/api/v1/me", { headers: { "Sec-Fetch-Site": "same-origin" } })).status).toBe(200);
  });

  it("the dashboard's session calls tools (also on the trial), and cross-site tool calls are refused", async () => {
    const owner = await ownerWithPassword("none");
    const { jar } = await signIn(owner.email, PASSWORD);
    const call = sessionFetch(jar);
    const created = await call("/api/v1/tools/create_task_list", { method: "POST", json: { name: "From the dashboard" } });
    expect(created.status).toBe(200);
    const listed = await call("/api/v1/tools/list_task_lists", { method: "POST", json: {} });
    expect(listed.body.result.lists.map((l: { name: string }) => l.name)).toEqual(["From the dashboard"]);
    const crossSite = await call("/api/v1/tools/create_task_list", { method: "POST", json: { name: "Evil" }, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
  });

  it("the active-workspace cookie cannot select a workspace the user is not a member of", async () => {
    const owner = await ownerWithPassword("none");
    const foreign = await createTenant({ plan: "pro" });
    const { jar } = await signIn(owner.email, PASSWORD);
    jar.set("adloom-workspace", foreign.workspaceId);
    const me = await sessionFetch(jar)("/api/v1/me");
    expect(me.status).toBe(200);
    // Still the user's own trial workspace (plan null), not the foreign Pro one.
    expect(me.body.account.plan).toBeNull();
    expect((await api(foreign.key)("/api/v1/me")).body.account.plan).toBe("pro");
  });

  it("switches to a second workspace the user belongs to", async () => {
    const owner = await ownerWithPassword("pro");
    const second = await createTenant();
    await admin(["member", "add", "--workspace", second.workspaceId, "--email", owner.email, "--role", "viewer"]);
    const { jar } = await signIn(owner.email, PASSWORD);
    jar.set("adloom-workspace", second.workspaceId);
    const call = sessionFetch(jar);
    // A viewer may not delete in the second workspace; the session acts with that role there.
    const del = await call("/api/v1/creatives", { method: "DELETE", json: { ids: ["crv_x"] } });
    expect(del.status).toBe(403);
    expect(del.body.error.message).toMatch(/viewer/);
  });

  it("a lapsed plan stops the dashboard's API calls too (402), the trial does not", async () => {
    const owner = await ownerWithPassword("pro");
    await admin(["plan", "set", "--workspace", owner.workspaceId, "--plan", "none"]);
    const { jar } = await signIn(owner.email, PASSWORD);
    const me = await sessionFetch(jar)("/api/v1/me");
    expect(me.status).toBe(402);
    expect(me.body.error.code).toBe("subscription_required");
  });

  it("pages redirect signed-out visitors to sign-in and render for a session", async () => {
    const owner = await ownerWithPassword();
    const base = (await import("vitest")).inject("baseUrl");
    const anonymous = await fetch(`${base}/dashboard/settings/api-keys`, { redirect: "manual" });
    expect([302, 303, 307]).toContain(anonymous.status);
    expect(anonymous.headers.get("location")).toContain("/sign-in");
    const { jar } = await signIn(owner.email, PASSWORD);
    const page = await fetch(`${base}/dashboard/settings/api-keys`, { headers: { Cookie: cookieHeader(jar) } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("API keys need the Pro plan");
  });
});
