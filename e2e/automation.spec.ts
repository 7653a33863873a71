import { admin, expect, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { expectNoAxeViolations } from "./support/pages";
import { callTool as tool, readyCreative } from "./support/tools";
import { paced } from "../scripts/test-pace.mjs";

test("create a rule in the editor, see its live preview, advance the sandbox, run the evaluation, see the run and the paused ad", async ({ page }) => {
  test.setTimeout(paced(240_000));
  await signUp(page, { workspace: "Rules Team" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);

  // Two delivering ads (set up through the same tools the Ads page calls): one the rule will catch, one it must not.
  const creativeId = await readyCreative(page, "rules.png");
  const { campaign } = await tool(page, "create_campaign", { platform: "platform_a", name: "Autumn", objective: "sales" });
  const { adSet } = await tool(page, "create_ad_set", {
    campaignId: campaign.id,
    platform: "platform_a",
    name: "EU buyers",
    budget: { type: "daily", amountMinor: 5000 },
    targetCountries: ["DE"],
  });
  const adIds: string[] = [];
  for (const name of ["Keep evergreen", "Cut tired banner"]) {
    const { id: copyVariantId } = await tool(page, "create_copy_variant", { creativeId, headline: name, primaryText: "Fresh autumn picks", label: name });
    const { ad } = await tool(page, "create_ad", {
      adSetId: adSet.id,
      creativeId,
      copyVariantId,
      name,
      callToAction: "shop_now",
      landingUrl: "https://example.com",
    });
    adIds.push(ad.id);
  }
  await tool(page, "activate_ads", { adIds });
  await admin(["sandbox", "advance", "--workspace", workspaceId, "--hours", "24"]);

  await page.goto("/dashboard/performance/rules");
  await expect(page.getByRole("heading", { level: 2, name: "Automation rules" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Performance" }).getByRole("link", { name: "Rules" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("button", { name: "New rule" }).click();
  const form = page.getByRole("form", { name: "New rule" });
  await form.getByLabel("Rule name").fill("Pause tired ads");
  await form.getByLabel("Condition 1 metric").selectOption("impressions");
  await form.getByLabel("Condition 1 operator").selectOption("gt");
  await form.getByLabel("Condition 1 value").fill("0");
  await form.getByLabel("over", { exact: true }).selectOption("last_3_days");
  await form.getByLabel("Applies to").selectOption("ads");
  await form.getByLabel("Name contains").fill("cut");
  await form.getByLabel("Action", { exact: true }).selectOption("pause");
  await form.getByLabel("Cooldown (minutes)").fill("120");
  // The live preview follows the form: the one ad named like "cut", with what the rule would do.
  const preview = form.getByRole("region", { name: "Live preview" });
  await expect(preview.getByTestId("preview-summary")).toContainText("1 of 1 match; 1 would change", { timeout: paced(20_000) });
  await expect(preview.getByText("Cut tired banner")).toBeVisible();
  await expect(preview.getByText("pause: active -> paused")).toBeVisible();
  await expectNoAxeViolations(page);
  await form.getByRole("button", { name: "Create rule" }).click();
  const rules = page.getByRole("list", { name: "Rules" });
  await expect(rules.getByText("Pause tired ads")).toBeVisible();
  await expect(rules.getByText(/not run yet/)).toBeVisible();

  // The hour comes round: advance the sandbox an hour and evaluate now (what the hourly job does).
  await admin(["sandbox", "advance", "--workspace", workspaceId, "--hours", "1"]);
  const { rules: results } = await admin<{ rules: { run: { actionsTaken: number } }[] }>(["automation", "run", "--workspace", workspaceId]);
  expect(results[0]!.run.actionsTaken).toBe(1);

  await page.reload();
  await expect(rules.getByText(/1 matched, 1 changed/)).toBeVisible();
  await rules.getByRole("button", { name: "Run log" }).click();
  const log = page.getByRole("list", { name: "Run log" });
  await expect(log.getByText(/1 matched · 1 changed/)).toBeVisible();
  await expect(log.getByText(/Cut tired banner \(Autumn\): pause: active -> paused/)).toBeVisible();
  await expectNoAxeViolations(page);

  // Phone width: the editor and the log still fit.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByRole("button", { name: "New rule" }).click();
  await expect(page.getByRole("form", { name: "New rule" }).getByRole("region", { name: "Live preview" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1440, height: 900 });

  // The Ads page shows the rule's work: the tired ad paused, the other still active.
  await page.goto("/dashboard/ads");
  const set = page.locator('[data-testid="ad-set"][data-name="EU buyers"]');
  await expect(set.locator('[data-testid="ad-row"][data-status="paused"]')).toHaveCount(1);
  await expect(set.locator('[data-testid="ad-row"][data-status="paused"]')).toContainText("Cut tired banner");
  await expect(set.locator('[data-testid="ad-row"][data-status="active"]')).toContainText("Keep evergreen");

  // The hourly rollup stores the delivery; the Overview tab charts it.
  await admin(["performance", "rollup", "--workspace", workspaceId]);
  await page.goto("/dashboard/performance");
  const spend = page.getByRole("figure", { name: /^Spend per day/ });
  await expect(spend.locator("svg.recharts-surface").first()).toBeVisible({ timeout: paced(20_000) });
  await expect(
    page
      .getByRole("figure", { name: /^CTR per day/ })
      .locator("svg.recharts-surface")
      .first(),
  ).toBeVisible();
});
