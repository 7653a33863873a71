import { describe, expect, it } from "vitest";
import { admin, api, createTenant } from "../helpers/fixtures";
import { cookieHeader, sessionFetch, signIn, signInClient } from "./session";

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

describe("sign-in limits", () => {
  // Clients at addresses of their own: Linux answers the whole of 127.0.0.0/8 on loopback, so a request sent from
  // 127.x.y.z reaches the server from that address (a new one per test, away from 127.0.0.1 and the other tests).
  const loopback = () => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

  it("a stranger's wrong passwords throttle the stranger, not the owner signing in from elsewhere", async () => {
    const owner = await ownerWithPassword();
    const stranger = signInClient({ from: loopback() });
    for (let i = 0; i < 10; i++) expect((await stranger(owner.email, `guess number ${i}`)).location).toContain("code=invalid_credentials");
    // Throttled before any check: the right password from the stranger's address is refused as well.
    const refused = await stranger(owner.email, PASSWORD);
    expect(refused.signedIn).toBe(false);
    expect(refused.location).toContain("code=throttled");
    const owners = await signInClient({ from: loopback() })(owner.email, PASSWORD);
    expect(owners.signedIn).toBe(true);
    expect((await sessionFetch(owners.jar)("/api/v1/me")).status).toBe(200);
  });

  it("one address trying a password across many accounts is stopped after 30 failures; X-Forwarded-For does not hide it", async () => {
    const run = `spray-${Date.now()}`;
    const sprayer = signInClient({ from: loopback() });
    // No proxy is trusted (TRUST_PROXY_HOPS=0): the header is the client's to write, so a new one per attempt changes nothing.
    const spoofed = (i: number) => ({ "X-Forwarded-For": `198.51.100.${i}` });
    // Sent together: each is counted when it arrives, before its (slow) password check.
    const sprayed = await Promise.all(Array.from({ length: 30 }, (_, i) => sprayer(`${run}-${i}@example.com`, "Spring2025!", "", spoofed(i))));
    for (const attempt of sprayed) expect(attempt.location).toContain("code=invalid_credentials");
    expect((await sprayer(`${run}-30@example.com`, "Spring2025!", "", spoofed(30))).location).toContain("code=throttled");
    expect((await signInClient({ from: loopback() })(`${run}-31@example.com`, "Spring2025!")).location).toContain("code=invalid_credentials");
  });
});
