import { computeSignature } from "../lib/webhooks/sign";
import { startReceiver } from "../tests/webhooks/helpers/receiver";
import { admin, expect, PASSWORD, test, uniqueEmail } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, PHONE } from "./support/pages";

/**
 * An API user (a key, no dashboard) invites through the invite_member tool; the person accepts in the
 * browser, and team.member_joined reaches the workspace's webhook, a real local receiver, signed.
 */
test("an invite made through the tool by an API key fires team.member_joined when accepted, at 390 px and 1440 px", async ({ browser, request }) => {
  const receiver = await startReceiver();
  try {
    const { workspaceId, ownerUserId } = await admin(["workspace", "create", "--name", "Keys Only Co", "--plan", "pro"]);
    const { key } = await admin(["key", "create", "--workspace", workspaceId, "--user", ownerUserId, "--name", "Ops bot"]);
    const call = async (name: string, args: object) => {
      const res = await request.post(`/api/v1/tools/${name}`, { data: args, headers: { Authorization: `Bearer ${key}` } });
      const body = await res.json();
      expect(res.status(), `${name}: ${JSON.stringify(body)}`).toBe(200);
      return body.result;
    };
    await call("set_webhook_url", { url: receiver.url });
    const { webhook } = await call("get_webhook", {});
    const email = uniqueEmail("api-invitee");
    const { invite } = await call("invite_member", { email, role: "editor" });
    expect(invite.url).toMatch(/\/invite\/[\w-]+$/);

    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport });
      const page = await context.newPage();
      await page.goto(new URL(invite.url).pathname);
      await expect(page.getByRole("heading", { name: "Join Keys Only Co" })).toBeVisible();
      await expectNoAxeViolations(page);
      if (viewport === DESKTOP) {
        await page.getByLabel("Your name").fill("Ada Api");
        await page.getByLabel("Choose a password").fill(PASSWORD);
        await page.getByRole("button", { name: "Create account and join" }).click();
        await expect(page).toHaveURL(/\/dashboard\/library/);
      }
      await context.close();
    }

    const [delivery] = await receiver.waitFor(1, { filter: (r) => JSON.parse(r.body).type === "team.member_joined", timeoutMs: 30_000 });
    const event = JSON.parse(delivery!.body);
    expect(event.data.member).toEqual({ name: "Ada Api", email });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery!.headers["service-signature"]))!;
    expect(v1).toBe(computeSignature(webhook.secret, Number(t), delivery!.body));
  } finally {
    await receiver.close();
  }
});

/**
 * Whoever makes an invite also holds its link, so the link must not let anyone set the password of an account that
 * exists without one (made by Google or GitHub sign-in, or by an operator): that would hand the inviter the account
 * and every workspace it belongs to. The page offers sign-in instead, and the server refuses the form even when the
 * account appears after the page was opened.
 */
test("an invite to the address of an account without a password cannot set that account's password", async ({ browser, request }) => {
  const victim = uniqueEmail("passwordless");
  await admin(["workspace", "create", "--name", "Victim Co", "--plan", "pro", "--owner-email", victim]);
  const { workspaceId, ownerUserId } = await admin(["workspace", "create", "--name", "Inviter Co", "--plan", "pro"]);
  const { key } = await admin(["key", "create", "--workspace", workspaceId, "--user", ownerUserId]);
  const invite = async (email: string) => {
    const res = await request.post("/api/v1/tools/invite_member", { data: { email, role: "viewer" }, headers: { Authorization: `Bearer ${key}` } });
    expect(res.status()).toBe(200);
    return new URL((await res.json()).result.invite.url).pathname;
  };

  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: PHONE });
  const page = await context.newPage();
  await page.goto(await invite(victim));
  await expect(page.getByRole("link", { name: "Sign in to accept" })).toBeVisible();
  await expect(page.getByText(`${victim} has an account without a password`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Create account and join" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The account is made while the new-account form is open: the form is refused, and no password is set.
  const late = uniqueEmail("late-account");
  await page.goto(await invite(late));
  await page.getByLabel("Your name").fill("Not The Owner");
  await page.getByLabel("Choose a password").fill(PASSWORD);
  await admin(["workspace", "create", "--name", "Late Co", "--plan", "pro", "--owner-email", late]);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "An account with this email already exists" })).toBeVisible();
  for (const email of [victim, late]) {
    const csrf = (await (await request.get("/api/auth/csrf")).json()).csrfToken;
    const signIn = await request.post("/api/auth/callback/credentials", { form: { email, password: PASSWORD, csrfToken: csrf }, maxRedirects: 0 });
    expect(signIn.headers()["set-cookie"] ?? "", `signing in as ${email} with the inviter's password`).not.toContain("authjs.session-token");
    expect(signIn.headers().location).toMatch(/error=/);
  }
  await context.close();
});
