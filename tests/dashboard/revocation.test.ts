import { describe, expect, inject, it } from "vitest";
import { totpCode } from "@/lib/session/totp";
import { admin, createTenant } from "../helpers/fixtures";
import { callServerAction, cookieHeader, sessionFetch, signIn, submitPageForm } from "./session";

const PASSWORD = "a long enough password";
const NEW_PASSWORD = "another long enough password";
let n = 0;
const email = () => `revoke-${Date.now()}-${++n}@example.com`;

async function userWithPassword(workspaceId: string, role: "owner" | "admin" | "editor" | "viewer" = "admin") {
  const address = email();
  const { userId } = await admin(["member", "add", "--workspace", workspaceId, "--email", address, "--role", role]);
  await admin(["user", "password", "--email", address, "--password", PASSWORD]);
  return { userId: userId!, email: address };
}

const me = (jar: Map<string, string>) => sessionFetch(jar)("/api/v1/me").then((r) => r.status);

/** A dashboard page with the session: 200, or a redirect to the sign-in page once it has ended. */
async function page(jar: Map<string, string>, path = "/dashboard/settings/security"): Promise<string> {
  const res = await fetch(inject("baseUrl") + path, { redirect: "manual", headers: { Cookie: cookieHeader(jar) } });
  await res.arrayBuffer();
  return res.status === 200 ? "ok" : (res.headers.get("location") ?? String(res.status));
}

describe("revocable dashboard sessions", () => {
  it("sign out everywhere ends every session of the user, on their next request, and no one else's", async () => {
    const tenant = await createTenant();
    const user = await userWithPassword(tenant.workspaceId);
    const other = await userWithPassword(tenant.workspaceId);
    const laptop = (await signIn(user.email, PASSWORD)).jar;
    const phone = (await signIn(user.email, PASSWORD)).jar;
    const colleague = (await signIn(other.email, PASSWORD)).jar;
    expect([await me(laptop), await me(phone), await me(colleague)]).toEqual([200, 200, 200]);
    expect(await page(phone)).toBe("ok");

    const action = await callServerAction(laptop, "/dashboard/settings/security", {
      file: "app/dashboard/settings/security/actions.ts",
      name: "signOutEverywhereAction",
    });
    expect(action.location ?? "").toContain("/sign-in");
    expect(await me(phone)).toBe(401);
    expect(await page(phone)).toContain("/sign-in");
    expect(await me(laptop)).toBe(401);
    expect(await me(colleague)).toBe(200);
    // Signing in again gives a working session.
    expect(await me((await signIn(user.email, PASSWORD)).jar)).toBe(200);
  });

  it("a password change ends the sessions signed in with the old password", async () => {
    const tenant = await createTenant();
    const user = await userWithPassword(tenant.workspaceId);
    const session = (await signIn(user.email, PASSWORD)).jar;
    expect(await me(session)).toBe(200);
    await admin(["user", "password", "--email", user.email, "--password", NEW_PASSWORD]);
    expect(await me(session)).toBe(401);
    expect(await page(session)).toContain("/sign-in");
    expect((await signIn(user.email, PASSWORD)).signedIn).toBe(false);
    expect(await me((await signIn(user.email, NEW_PASSWORD)).jar)).toBe(200);
  });

  it("changing the password in the profile ends every session of the user, the one that changed it too", async () => {
    const tenant = await createTenant();
    const user = await userWithPassword(tenant.workspaceId);
    const laptop = (await signIn(user.email, PASSWORD)).jar;
    const stolen = (await signIn(user.email, PASSWORD)).jar;
    const changePassword = { file: "app/dashboard/settings/profile/actions.ts", name: "changePasswordAction" };
    const refused = await callServerAction(laptop, "/dashboard/settings/profile", changePassword, [{ current: "not the password", next: NEW_PASSWORD }]);
    expect(refused.status).toBe(200);
    expect([await me(laptop), await me(stolen)]).toEqual([200, 200]);

    const changed = await callServerAction(laptop, "/dashboard/settings/profile", changePassword, [{ current: PASSWORD, next: NEW_PASSWORD }]);
    expect(changed.status).toBe(200);
    expect([await me(laptop), await me(stolen)]).toEqual([401, 401]);
    expect(await page(stolen)).toContain("/sign-in");
    expect((await signIn(user.email, PASSWORD)).signedIn).toBe(false);
    expect(await me((await signIn(user.email, NEW_PASSWORD)).jar)).toBe(200);
  });

  it("removing a member ends their sessions; the owner who removed them stays signed in", async () => {
    const tenant = await createTenant();
    const owner = await userWithPassword(tenant.workspaceId, "owner");
    const member = await userWithPassword(tenant.workspaceId, "editor");
    const ownerJar = (await signIn(owner.email, PASSWORD)).jar;
    const memberJar = (await signIn(member.email, PASSWORD)).jar;
    expect(await me(memberJar)).toBe(200);
    const removed = await callServerAction(
      ownerJar,
      "/dashboard/settings/team",
      { file: "app/dashboard/settings/team/actions.ts", name: "removeMemberAction" },
      [member.userId],
    );
    expect(removed.status).toBe(200);
    expect(await me(memberJar)).toBe(401);
    expect(await page(memberJar, "/dashboard")).toContain("/sign-in");
    expect(await me(ownerJar)).toBe(200);
  });
});

describe("account secrets checked for a signed-in session", () => {
  it("the current password is checked at most 10 times in 15 minutes: a stolen session cannot try them all", async () => {
    const user = await userWithPassword((await createTenant()).workspaceId);
    const { jar } = await signIn(user.email, PASSWORD);
    const changePassword = { file: "app/dashboard/settings/profile/actions.ts", name: "changePasswordAction" };
    for (let i = 0; i < 10; i++) {
      const wrong = await callServerAction(jar, "/dashboard/settings/profile", changePassword, [{ current: `guess number ${i}`, next: NEW_PASSWORD }]);
      expect(wrong.body).toContain("The current password is not right");
    }
    // Refused before any check, the right password too: the action's answer carries the 429 code.
    const refused = await callServerAction(jar, "/dashboard/settings/profile", changePassword, [{ current: PASSWORD, next: NEW_PASSWORD }]);
    expect(refused.body).toContain('"code":"rate_limited"');
    expect(refused.body).toMatch(/Too many wrong passwords\. Try again in 1[45] minutes/);
    expect(await me(jar)).toBe(200);
  });

  it("turning two-factor off checks at most 10 codes in 15 minutes", async () => {
    const user = await userWithPassword((await createTenant()).workspaceId);
    const { jar } = await signIn(user.email, PASSWORD);
    const security = (name: string) => ({ file: "app/dashboard/settings/security/actions.ts", name });
    const started = await callServerAction(jar, "/dashboard/settings/security", security("startEnrolmentAction"));
    const secret = /"secret":"([A-Z2-7]+)"/.exec(started.body)![1]!;
    expect((await callServerAction(jar, "/dashboard/settings/security", security("confirmEnrolmentAction"), [totpCode(secret)])).body).toContain('"ok":true');
    for (let i = 0; i < 10; i++) {
      const wrong = await callServerAction(jar, "/dashboard/settings/security", security("disableTwoFactorAction"), [`not a code ${i}`]);
      expect(wrong.body).toContain("two-factor authentication is still on");
    }
    const refused = await callServerAction(jar, "/dashboard/settings/security", security("disableTwoFactorAction"), [totpCode(secret)]);
    expect(refused.body).toContain('"code":"rate_limited"');
    expect((await signIn(user.email, PASSWORD)).location).toContain("code=two_factor_required");
  });
});

describe("password reset requests", () => {
  const resetMails = async (to: string) => (await admin<{ messages: { text: string }[] }>(["mail", "list", "--to", to])).messages;
  /** The outbox's reset emails to `to` once there are `count` (a job makes and sends them after the form's answer). */
  const resetMailsWhen = async (to: string, count: number) => {
    await expect.poll(async () => (await resetMails(to)).length).toBe(count);
    return resetMails(to);
  };
  const linkIn = (text: string) => /(https?:\/\/\S+\/reset-password\/\S+)/.exec(text)![1]!;

  it("the emailed link points at this service (PUBLIC_BASE_URL), not at a host the request named", async () => {
    const user = await userWithPassword((await createTenant()).workspaceId);
    // Anyone can ask for anyone's reset, with headers of their choosing (Origin agreeing, as Next's check wants).
    const asked = await submitPageForm(
      "/forgot-password",
      { email: user.email },
      { headers: { Origin: "http://evil.example", "X-Forwarded-Host": "evil.example" } },
    );
    expect(asked.html).toContain("waits in this server");
    const [mail] = await resetMailsWhen(user.email, 1);
    const link = linkIn(mail!.text);
    expect(link).not.toContain("evil.example");
    // PUBLIC_BASE_URL is unset on the shared server: http://localhost:PORT.
    expect(new URL(link).origin).toBe(`http://localhost:${new URL(inject("baseUrl")).port}`);
  });

  it("send at most 3 emails per address in 15 minutes; later requests answer the same and send nothing", async () => {
    const user = await userWithPassword((await createTenant()).workspaceId);
    for (let i = 0; i < 5; i++) expect((await submitPageForm("/forgot-password", { email: user.email })).html).toContain("waits in this server");
    const mails = await resetMailsWhen(user.email, 3);
    // Every link sent works (the refused requests replaced none), until one of them sets the password.
    const tokens = mails.map((m) => linkIn(m.text).split("/").pop()!);
    for (const token of tokens) expect(await fetch(`${inject("baseUrl")}/reset-password/${token}`).then((r) => r.text())).toContain("Set new password");
    const reset = await submitPageForm(`/reset-password/${tokens[1]}`, { password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    // The form's state in the answer (the page itself renders again, for a link now spent).
    expect(reset.html).toContain('{"done":true,"email":"');
    for (const token of tokens) expect(await fetch(`${inject("baseUrl")}/reset-password/${token}`).then((r) => r.text())).not.toContain("Set new password");
    expect(await resetMails(user.email)).toHaveLength(3);
  });
});
