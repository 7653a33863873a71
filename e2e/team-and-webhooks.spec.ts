import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, PASSWORD, screenshot, signUp, switchToPro, test, uniqueEmail } from "./support/fixtures";
import { paced } from "../scripts/test-pace.mjs";

/** A local webhook receiver: records every request, answers 200 (or what `status` says). */
async function startReceiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const state = { status: 200 };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(state.status, { "Content-Type": "application/json" }).end(JSON.stringify({ received: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/adloom`, received, state, close: () => new Promise((r) => server.close(r)) };
}

test("set a webhook, send a test, see the delivery, resend it; invite a member who accepts and fires team.member_joined", async ({ page, browser }) => {
  const receiver = await startReceiver();
  try {
    await signUp(page, { workspace: "Hooks & Team" });
    await switchToPro(page);

    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByText("No deliveries yet")).toBeVisible();
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByRole("button", { name: "Save endpoint" }).click();
    await expect(page.getByText("Endpoint saved.")).toBeVisible();
    await page.getByRole("button", { name: "Reveal" }).click();
    await expect(page.getByTestId("webhook-secret")).toHaveText(/^adlsig_/);
    const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();

    await page.getByRole("button", { name: "Send test event" }).click();
    const firstRow = page.getByTestId("delivery-row").first();
    await expect(firstRow).toHaveAttribute("data-event-type", "test", { timeout: paced(30_000) });
    await expect(firstRow).toHaveAttribute("data-outcome", "succeeded");
    await expect(page.getByTestId("webhook-health")).toContainText("Healthy");
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(secret).not.toContain("•");

    await firstRow.getByRole("button", { name: "Details" }).click();
    await expect(page.getByText("Request body")).toBeVisible();
    await firstRow.getByRole("button", { name: "Resend" }).click();
    await expect(page.getByTestId("delivery-row")).toHaveCount(2);
    await expect(page.getByTestId("delivery-row").first()).toContainText("redelivery");
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1]!.body).id).toBe(JSON.parse(receiver.received[0]!.body).id);
    await screenshot(page, "webhooks");

    // Invite a teammate; the link is shown to the inviter (no mail transport configured).
    await page.getByRole("link", { name: "Team" }).click();
    const memberEmail = uniqueEmail("editor");
    await page.getByLabel("Email").fill(memberEmail);
    await page.getByLabel("Role").selectOption("editor");
    await page.getByRole("button", { name: "Create invite link" }).click();
    const link = (await page.getByTestId("invite-link").textContent())!.trim();
    expect(link).toMatch(/\/invite\/[\w-]+$/);
    await expect(page.getByText("Pending invites")).toBeVisible();
    await screenshot(page, "team");

    const invitee = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const other = await invitee.newPage();
    const errors: string[] = [];
    other.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await other.goto(new URL(link).pathname);
    await expect(other.getByRole("heading", { name: "Join Hooks & Team" })).toBeVisible();
    await other.getByLabel("Your name").fill("Eddie Editor");
    await other.getByLabel("Choose a password").fill(PASSWORD);
    await other.getByRole("button", { name: "Create account and join" }).click();
    await expect(other).toHaveURL(/\/dashboard\/library/);
    await expect(other.getByText("Hooks & Team", { exact: true })).toBeVisible();
    // An editor cannot manage webhooks or the team.
    await other.goto("/dashboard/settings/webhooks");
    await expect(other.getByText("Only owners and admins manage webhooks")).toBeVisible();
    // A member sees and manages only their own keys, with scopes capped by their role.
    await other.goto("/dashboard/settings/api-keys");
    await other.getByLabel("Name").fill("Editor key");
    await other.getByLabel("Only chosen scopes").check();
    await expect(other.getByRole("checkbox", { name: /^launch/ })).toBeDisabled();
    await other.getByRole("checkbox", { name: /^edit/ }).check();
    await other.getByRole("button", { name: "Create key" }).click();
    await expect(other.getByTestId("new-api-key")).toHaveText(/^adl_/);
    await expect(other.getByTestId("api-key-row")).toHaveCount(1);
    // The link works once.
    await other.goto(new URL(link).pathname);
    await expect(other.getByRole("heading", { name: "This invite cannot be used" })).toBeVisible();
    expect(errors).toEqual([]);
    await invitee.close();

    await page.reload();
    await expect(page.getByTestId("member-row").filter({ hasText: memberEmail })).toContainText("editor");
    // Owners see every key of the workspace, with its creator, and may revoke it.
    await page.goto("/dashboard/settings/api-keys");
    await expect(page.getByTestId("api-key-row").filter({ hasText: "Editor key" })).toContainText("Eddie Editor");
    await page.goto("/dashboard/settings/webhooks");
    const joined = page.locator('[data-testid="delivery-row"][data-event-type="team.member_joined"]');
    await expect(joined).toHaveCount(1, { timeout: paced(30_000) });
    const event = receiver.received.map((r) => JSON.parse(r.body)).find((e) => e.type === "team.member_joined");
    expect(event.data.member).toEqual({ name: "Eddie Editor", email: memberEmail });
  } finally {
    await receiver.close();
  }
});
