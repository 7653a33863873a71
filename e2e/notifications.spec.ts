import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, screenshot, signUp, test } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";

/** A local HTTP receiver standing in for Slack's incoming webhook (the e2e server allows loopback URLs). */
async function slackReceiver(): Promise<{ url: string; bodies: any[]; close(): Promise<void> }> {
  const bodies: any[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      bodies.push(JSON.parse(raw));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/services/T1/B1/secret`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

test("notifications: each person chooses their emails (the page says they wait in the outbox without SMTP), admins connect Slack; both widths", async ({
  page,
}) => {
  const slack = await slackReceiver();
  try {
    await page.setViewportSize(DESKTOP);
    const { email } = await signUp(page, { workspace: "Notify Co" });
    await page.getByRole("link", { name: "Notifications" }).click();
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();

    // No SMTP server on the e2e run: no promise of "we emailed", the outbox is named.
    const transport = page.getByTestId("email-transport");
    await expect(transport).toHaveAttribute("data-transport", "outbox");
    await expect(transport).toContainText(`emails to ${email} wait in its outbox`);
    const dueTasks = page.getByRole("checkbox", { name: /^Tasks due\s*Sent to/ });
    await expect(dueTasks).toBeChecked();
    await dueTasks.uncheck();
    await page.getByRole("button", { name: "Save email choices" }).click();
    await expect(page.getByText("Your email notifications are saved.")).toBeVisible();

    await page.getByLabel("Incoming-webhook URL").fill(slack.url);
    await page.getByRole("checkbox", { name: "Import finished", exact: true }).uncheck();
    await page.getByRole("button", { name: "Connect channel" }).click();
    await expect(page.getByText("Slack channel saved.")).toBeVisible();
    await expect(page.getByTestId("slack-connected")).toContainText("/services/…");
    await expect(page.getByTestId("slack-connected")).not.toContainText("secret");
    await page.getByRole("button", { name: "Send test message" }).click();
    await expect(page.getByText("Test message posted")).toBeVisible();
    await expect.poll(() => slack.bodies.length).toBe(1);
    expect(slack.bodies[0]).toMatchObject({ text: expect.stringContaining("Adloom test message"), blocks: [{ type: "section" }] });
    await expectNoAxeViolations(page);
    await screenshot(page, "notifications-settings");

    // Saved for this person and this workspace: after a reload at phone width, still as chosen.
    await page.setViewportSize(PHONE);
    await page.reload();
    await expect(page.getByRole("checkbox", { name: /^Tasks due\s*Sent to/ })).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: /^Mentions\s*Sent to/ })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Import finished", exact: true })).not.toBeChecked();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await screenshot(page, "notifications-settings-phone");
  } finally {
    await slack.close();
  }
});
