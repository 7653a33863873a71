import { admin, expect, signUp, test } from "./support/fixtures";
import { expectNoAxeViolations, expectNoSidewaysScroll } from "./support/pages";

test("ad accounts: a new workspace's sandbox accounts, labelled sandbox and default; Connect says what the operator must configure; phone width too", async ({
  page,
}) => {
  await signUp(page, { workspace: "Accounts Co" });
  await page.goto("/dashboard/settings/plan");
  const workspaceId = (await page.getByTestId("workspace-id").textContent())!.trim();

  await page.getByRole("link", { name: "Ad accounts" }).click();
  await expect(page.getByRole("heading", { name: "Ad accounts", level: 1 })).toBeVisible();
  const listed = await admin<{ adAccounts: { externalId: string; platform: string }[] }>(["adaccount", "list", "--workspace", workspaceId]);
  for (const [label, platform] of [
    ["Platform A", "platform_a"],
    ["Platform B", "platform_b"],
  ] as const) {
    const table = page.getByRole("table", { name: `${label} ad accounts` });
    const row = table.getByRole("row").filter({ hasText: listed.adAccounts.find((a) => a.platform === platform)!.externalId });
    await expect(row).toContainText("Sandbox");
    await expect(row).toContainText("Default");
    await expect(row).toContainText("Active");
    // Sandbox accounts cannot be disconnected.
    await expect(row.getByRole("button", { name: /Disconnect/ })).toHaveCount(0);
    const connect = page.getByRole("button", { name: `Connect ${label} account` });
    await expect(connect).toBeDisabled();
    await expect(page.getByText(platform === "platform_a" ? /PLATFORM_A_APP_ID/ : /PLATFORM_B_APP_ID/)).toBeVisible();
  }
  await expectNoAxeViolations(page);

  // Starting the flow without the platform app configured comes back with a clear message.
  await page.goto("/api/ad-accounts/oauth/platform_a/start");
  await expect(page).toHaveURL(/\/dashboard\/settings\/ad-accounts\?error=/);
  await expect(page.getByRole("alert").filter({ hasText: "Connecting platform_a" })).toContainText("PLATFORM_A_APP_ID and PLATFORM_A_APP_SECRET");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/settings/ad-accounts");
  await expect(page.getByRole("table", { name: "Platform B ad accounts" })).toContainText("Sandbox");
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
});
