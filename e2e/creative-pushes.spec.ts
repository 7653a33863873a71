import { expect, signUp, subscribeToPro, test } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { callTool, readyCreative } from "./support/tools";
import { paced } from "../scripts/test-pace.mjs";

test("send a creative uploaded to platform A to the platform B ad account from its page; phone width too", async ({ page }) => {
  await signUp(page, { workspace: "Pushes Co" });
  await subscribeToPro(page);
  const creativeId = await readyCreative(page, "everywhere.png");
  const { adAccounts } = await callTool(page, "list_connected_ad_accounts", {});
  const accountB = adAccounts.find((a: any) => a.platform === "platform_b" && a.isDefault);

  await page.setViewportSize(DESKTOP);
  await page.goto(`/dashboard/library/${creativeId}`);
  await expect(page.getByRole("heading", { name: "Ad accounts" })).toBeVisible();
  const rows = page.getByTestId("creative-push");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Platform A");
  await expect(rows.first()).toContainText("ready");
  await expectNoAxeViolations(page);

  await page.getByRole("combobox", { name: "Ad account" }).selectOption({ label: `Platform B · ${accountB.name} (sandbox)` });
  await page.getByRole("button", { name: "Send to ad account" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("Platform B");
  await expect(rows.nth(1)).toContainText("ready", { timeout: paced(30_000) });
  // On every account now: nothing left to send to.
  await expect(page.getByRole("button", { name: "Send to ad account" })).toHaveCount(0);

  // The same creative, one push per account (through the tool the panel uses).
  const { pushes } = await callTool(page, "list_creative_pushes", { creativeId });
  expect(pushes.map((p: any) => [p.platform, p.state])).toEqual([
    ["platform_a", "ready"],
    ["platform_b", "ready"],
  ]);
  const { creatives } = await callTool(page, "list_creatives", { limit: 50 });
  expect(creatives.filter((c: any) => c.fileName === "everywhere.png")).toHaveLength(1);

  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
});
