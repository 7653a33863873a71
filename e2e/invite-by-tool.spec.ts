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
