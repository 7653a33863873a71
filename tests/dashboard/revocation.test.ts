import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { describe, expect, inject, it } from "vitest";
import { totpCode } from "@/lib/session/totp";
import { admin, api, createTenant } from "../helpers/fixtures";
import { MemoryOAuthProvider, postConsent, postForm } from "../oauth/helpers";
import { toolResult } from "../tools/helpers";
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
  // The reset emails alone: the operator's `user password` of the setup mails its notice to the address too.
  const resetMails = async (to: string) =>
    (await admin<{ messages: { subject: string; text: string }[] }>(["mail", "list", "--to", to])).messages.filter(
      (m) => m.subject === "Reset your Adloom password",
    );
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

describe("email verification", () => {
  type Mail = { subject: string; text: string };
  const mails = async (to: string) => (await admin<{ messages: Mail[] }>(["mail", "list", "--to", to])).messages;
  const confirmations = async (to: string) => (await mails(to)).filter((m) => m.subject === "Confirm your email address for Adloom");
  /** The path (and query) of the first link to `route` in a mail. */
  const pathIn = (mail: Mail | undefined, route: string) => {
    const url = new URL(new RegExp(`(https?://\\S+/${route}/\\S+)`).exec(mail?.text ?? "")![1]!);
    return { url, path: url.pathname + url.search };
  };
  /** A page as the session (or a signed-out visitor) gets it. */
  const html = (path: string, jar?: Map<string, string>) =>
    fetch(inject("baseUrl") + path, { redirect: "manual", headers: jar ? { Cookie: cookieHeader(jar) } : {} }).then((r) => r.text());
  const BANNER = 'aria-label="Address confirmation"';
  /** Signs up through the page's form, as anyone can, with any address. */
  const signUpThroughPage = (address: string) =>
    submitPageForm("/sign-up", { name: "Sam Signup", email: address, password: PASSWORD, workspaceName: "Sign-up Co" });

  it("sign-up mails a link (at PUBLIC_BASE_URL); the banner stays until the account's holder, signed in, confirms with it, once", async () => {
    const address = email();
    await signUpThroughPage(address);
    const [mail] = await confirmations(address);
    const { url, path } = pathIn(mail, "verify-email");
    expect(url.origin).toBe(`http://localhost:${new URL(inject("baseUrl")).port}`);
    const { jar } = await signIn(address, PASSWORD);
    expect(await html("/dashboard/library", jar)).toContain(BANNER);

    // Opened signed out (by whoever reads the mailbox, or a mail scanner), the link confirms nothing.
    expect(await html(path)).toContain("Sign in to confirm");
    // The account's form posted with another account's session confirms nothing either.
    const other = email();
    await signUpThroughPage(other);
    const otherJar = (await signIn(other, PASSWORD)).jar;
    expect(await html(path, otherJar)).toContain("This link confirms the address of another account");
    const form = await html(path, jar);
    expect(form).toContain("Confirm email address");
    await submitPageForm(path, {}, { html: form, headers: { Cookie: cookieHeader(otherJar) } });
    expect(await html("/dashboard/library", jar)).toContain(BANNER);
    expect(await html("/dashboard/library", otherJar)).toContain(BANNER);

    const confirmed = await submitPageForm(path, {}, { html: form, headers: { Cookie: cookieHeader(jar) } });
    expect(confirmed.html).toContain("Your email address is confirmed");
    expect(await html("/dashboard/library", jar)).not.toContain(BANNER);
    expect(await html(path)).toContain("This link cannot be used");
  });

  it("the banner's button mails a new link that replaces the last; at most 3 per address in 15 minutes, the sign-up's included", async () => {
    const address = email();
    await signUpThroughPage(address);
    const { jar } = await signIn(address, PASSWORD);
    const resend = { file: "app/dashboard/actions.ts", name: "resendVerificationEmailAction" };
    for (let i = 0; i < 4; i++) expect((await callServerAction(jar, "/dashboard/library", resend)).status).toBe(200);
    const sent = await confirmations(address);
    expect(sent).toHaveLength(3);
    // Newest first: the last one sent works, the sign-up's was replaced.
    expect(await html(pathIn(sent[0], "verify-email").path, jar)).toContain("Confirm email address");
    expect(await html(pathIn(sent[2], "verify-email").path, jar)).toContain("This link cannot be used");
  });

  it("a password set through the mailed reset link confirms the address and ends the sessions of whoever made the account", async () => {
    const address = email();
    await signUpThroughPage(address); // a stranger, with someone else's address
    const stranger = (await signIn(address, PASSWORD)).jar;
    expect(await html("/dashboard/library", stranger)).toContain(BANNER);
    await submitPageForm("/forgot-password", { email: address });
    // The password-reset-email job makes and sends the link after the form's answer.
    const resetMail = async () => (await mails(address)).find((m) => m.subject === "Reset your Adloom password");
    await expect.poll(resetMail).toBeDefined();
    const reset = await resetMail();
    await submitPageForm(pathIn(reset, "reset-password").path, { password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(await me(stranger)).toBe(401);
    expect((await signIn(address, PASSWORD)).signedIn).toBe(false);
    expect(await html("/dashboard/library", (await signIn(address, NEW_PASSWORD)).jar)).not.toContain(BANNER);
  });

  /** What a signed-in holder of the account does to act as it without a session: subscribe, then make an API key. */
  const subscribeAndMakeKey = async (jar: Map<string, string>) => {
    const plan = { file: "app/dashboard/settings/plan/actions.ts", name: "subscribePro" };
    expect((await callServerAction(jar, "/dashboard/settings/plan", plan)).status).toBe(200);
    return makeKey(jar);
  };
  const makeKey = async (jar: Map<string, string>) => {
    const create = { file: "app/dashboard/settings/api-keys/actions.ts", name: "createKeyAction" };
    const made = await callServerAction(jar, "/dashboard/settings/api-keys", create, [{ name: "Made before", scopes: null }]);
    return /"key":"(adl_[\w-]+)"/.exec(made.body)![1]!;
  };
  const keyStatus = async (key: string) => (await api(key)("/api/v1/me")).status;
  /** An MCP tools/list with the OAuth access token: its status. */
  const mcpStatus = async (token: string) => {
    const res = await fetch(`${inject("baseUrl")}/api/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    await res.arrayBuffer();
    return res.status;
  };
  /** An MCP client the session's holder connects (registration, consent in the active workspace, code exchange). */
  const connectMcpClient = async (jar: Map<string, string>) => {
    const provider = new MemoryOAuthProvider();
    const serverUrl = new URL(`${inject("baseUrl")}/api/mcp`);
    expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
    const consentPath = (await fetch(provider.authorizationUrl!, { redirect: "manual" })).headers.get("location")!;
    const workspaceId = /name="workspace_id"[^>]*value="([^"]+)"/.exec(await html(consentPath, jar))![1]!;
    const form = new URLSearchParams(new URL(consentPath, inject("baseUrl")).search);
    form.set("decision", "allow");
    form.set("workspace_id", workspaceId);
    const code = new URL((await postConsent(jar, form)).headers.get("location")!).searchParams.get("code")!;
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe("AUTHORIZED");
    return { clientId: provider.clientInfo!.client_id, ...provider.savedTokens! };
  };
  /** Asks for a reset as anyone can, and sets NEW_PASSWORD through the link mailed to the address; the form's answer. */
  const resetByEmail = async (address: string) => {
    await submitPageForm("/forgot-password", { email: address });
    const resetMail = async () => (await mails(address)).find((m) => m.subject === "Reset your Adloom password");
    await expect.poll(resetMail).toBeDefined();
    return (await submitPageForm(pathIn(await resetMail(), "reset-password").path, { password: NEW_PASSWORD, confirm: NEW_PASSWORD })).html;
  };
  /** Turns two-factor on for the session's account, as its Security page does; the authenticator's secret. */
  const enrolTwoFactor = async (jar: Map<string, string>) => {
    const security = (name: string) => ({ file: "app/dashboard/settings/security/actions.ts", name });
    const started = await callServerAction(jar, "/dashboard/settings/security", security("startEnrolmentAction"));
    const secret = /"secret":"([A-Z2-7]+)"/.exec(started.body)![1]!;
    expect((await callServerAction(jar, "/dashboard/settings/security", security("confirmEnrolmentAction"), [totpCode(secret)])).body).toContain('"ok":true');
    return secret;
  };
  /** The security notice of the reset (a job sends it after the reset). */
  const resetNotice = async (address: string) => {
    const notice = async () => (await mails(address)).find((m) => m.subject === "Your Adloom password was reset");
    await expect.poll(notice).toBeDefined();
    return (await notice())!.text;
  };

  it("the reset that proves the address revokes the API keys and app connections made with the account before; a fellow member's key stays", async () => {
    const address = email();
    await signUpThroughPage(address); // a stranger, with someone else's address
    const stranger = (await signIn(address, PASSWORD)).jar;
    const strangerKey = await subscribeAndMakeKey(stranger);
    const mcp = await connectMcpClient(stranger);
    // Someone they invite into the workspace is a person of their own, with a key of their own.
    const fellow = email();
    const invite = new URL((await toolResult(strangerKey, "invite_member", { email: fellow, role: "editor" })).invite.url).pathname;
    await submitPageForm(invite, { name: "Fay Fellow", password: PASSWORD }, { html: await html(invite) });
    const fellowKey = await makeKey((await signIn(fellow, PASSWORD)).jar);
    expect([await keyStatus(strangerKey), await keyStatus(fellowKey), await mcpStatus(mcp.access_token)]).toEqual([200, 200, 200]);

    await resetByEmail(address);
    expect(await keyStatus(strangerKey)).toBe(401);
    expect(await mcpStatus(mcp.access_token)).toBe(401);
    const refreshed = await postForm("/api/oauth/token", { grant_type: "refresh_token", refresh_token: mcp.refresh_token!, client_id: mcp.clientId });
    expect(refreshed.body).toMatchObject({ error: "invalid_grant" });
    expect(await keyStatus(fellowKey)).toBe(200);

    // The owner is told, in the notice email and on the Security page.
    expect(await resetNotice(address)).toContain("is revoked and no longer works: 1 API key and 1 app connection.");
    const security = await html("/dashboard/settings/security", (await signIn(address, NEW_PASSWORD)).jar);
    expect(security).toContain("Password reset by email; revoked what was made before the address was confirmed: 1 API key and 1 app connection");
  });

  it("the reset that proves the address turns off the two-factor its holder turned on: the new password alone signs in", async () => {
    const tenant = await createTenant();
    const squatter = await userWithPassword(tenant.workspaceId); // an unconfirmed address, with a password someone set
    await enrolTwoFactor((await signIn(squatter.email, PASSWORD)).jar);
    await admin(["workspace", "two-factor", "--workspace", tenant.workspaceId, "--permissions", "account.read"]);
    expect((await signIn(squatter.email, PASSWORD)).location).toContain("code=two_factor_required");

    // The reset page says what the reset undid.
    expect(await resetByEmail(squatter.email)).toContain('"revoked":"two-factor authentication"');
    const owner = await signIn(squatter.email, NEW_PASSWORD);
    expect(owner.signedIn).toBe(true);
    // The workspace's requirement applies again, as to anyone without two-factor, and the owner may enrol anew.
    const refused = await sessionFetch(owner.jar)("/api/v1/me");
    expect([refused.status, refused.body.error.code]).toEqual([403, "two_factor_required"]);
    await enrolTwoFactor(owner.jar);
    // The address is told, in the notice two-factor turned off always sends.
    const offNotice = async () => (await mails(squatter.email)).find((m) => m.subject === "Two-factor authentication was turned off for your Adloom account");
    await expect.poll(offNotice).toBeDefined();
  });

  it("a reset of an account whose address is already confirmed revokes nothing: its keys and two-factor are the address's owner's", async () => {
    const address = email();
    await signUpThroughPage(address);
    const { jar } = await signIn(address, PASSWORD);
    const { path } = pathIn((await confirmations(address))[0], "verify-email");
    await submitPageForm(path, {}, { html: await html(path, jar), headers: { Cookie: cookieHeader(jar) } });
    const key = await subscribeAndMakeKey(jar);
    const secret = await enrolTwoFactor(jar);

    expect(await resetByEmail(address)).not.toContain('"revoked"');
    expect(await me(jar)).toBe(401);
    expect(await keyStatus(key)).toBe(200);
    expect(await resetNotice(address)).not.toContain("revoked");
    // Whoever reads the mailbox does not get past the owner's second factor.
    expect((await signIn(address, NEW_PASSWORD)).location).toContain("code=two_factor_required");
    expect((await signIn(address, NEW_PASSWORD, totpCode(secret))).signedIn).toBe(true);
  });

  it("an account made through the invite link its sender was shown is unconfirmed (and mailed a link); through the emailed link, confirmed", async () => {
    const t = await createTenant();
    const [shown, mailed] = [email(), email()];
    const shownUrl = new URL((await toolResult(t.key, "invite_member", { email: shown, role: "editor" })).invite.url);
    await toolResult(t.key, "invite_member", { email: mailed, role: "editor" });
    const emailed = pathIn(
      (await mails(mailed)).find((m) => m.subject.includes("invited you")),
      "invite",
    );
    expect(emailed.url.pathname).toMatch(/^\/invite\/[\w-]+$/);
    for (const path of [shownUrl.pathname, emailed.path]) {
      const page = await html(path);
      expect(page).toContain("Create account and join");
      await submitPageForm(path, { name: "Ivy Invitee", password: PASSWORD }, { html: page });
    }
    expect(await html("/dashboard/library", (await signIn(shown, PASSWORD)).jar)).toContain(BANNER);
    expect(await confirmations(shown)).toHaveLength(1);
    expect(await html("/dashboard/library", (await signIn(mailed, PASSWORD)).jar)).not.toContain(BANNER);
    expect(await confirmations(mailed)).toHaveLength(0);
  });

  it("a signed-in account whose address is unconfirmed accepts an invite only through its emailed link, which confirms the address", async () => {
    const t = await createTenant();
    const address = email();
    await signUpThroughPage(address); // whoever made it: the address is not proven
    const { jar } = await signIn(address, PASSWORD);
    const shown = new URL((await toolResult(t.key, "invite_member", { email: address, role: "editor" })).invite.url).pathname;
    const token = shown.split("/").pop()!;
    const accept = { file: "app/invite/[token]/actions.ts", name: "acceptAsSignedIn" };

    // Through the link its sender was shown (theirs to pass on): refused, the invite stays open, and the page says why.
    const refused = await callServerAction(jar, shown, accept, [token, null]);
    expect(refused.location).toBeNull();
    const page = await html(shown, jar);
    expect(page).not.toContain("This invite cannot be used");
    expect(page).toContain("is not confirmed yet");
    expect(page).not.toContain("Accept invite");
    expect(await html("/dashboard/library", jar)).toContain(BANNER);

    // Through the emailed link (the address's owner reads it): accepted, and the address confirmed.
    const emailed = pathIn(
      (await mails(address)).find((m) => m.subject.includes("invited you")),
      "invite",
    );
    expect(await html(emailed.path, jar)).toContain("Accept invite");
    const accepted = await callServerAction(jar, emailed.path, accept, [token, emailed.url.searchParams.get("mail")]);
    expect(accepted.location).toContain("/dashboard/library");
    expect(await html(shown, jar)).toContain("This invite cannot be used");
    expect(await html("/dashboard/library", jar)).not.toContain(BANNER);
  });
});
