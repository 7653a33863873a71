import { admin, expect, PASSWORD, screenshot, signUp, subscribeToPro, test, uniqueEmail, workspaceIdOf } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { callTool as tool, readyCreative } from "./support/tools";
import { paced } from "../scripts/test-pace.mjs";

// The form is submitted once with one creative on purpose: the tool answers 400 with its message.
test.use({ allowConsole: [/^Failed to load resource: the server responded with a status of 400 \(Bad Request\)$/] });

test("a creative test started in the Performance page's form, followed and stopped, at phone and desktop width", async ({ page, browser }) => {
  test.setTimeout(paced(240_000));
  await signUp(page, { workspace: "Testing Team" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);

  const creativeIds = [await readyCreative(page, "north.png", 500), await readyCreative(page, "south.png", 520)];
  const { campaign } = await tool(page, "create_campaign", { platform: "platform_a", name: "Spring", objective: "sales" });
  const { adSet } = await tool(page, "create_ad_set", {
    campaignId: campaign.id,
    platform: "platform_a",
    name: "Spring set",
    budget: { type: "daily", amountMinor: 20_000 },
    targetCountries: ["US"],
  });
  const adIds: string[] = [];
  for (const creativeId of creativeIds) {
    const copy = await tool(page, "create_copy_variant", { creativeId, headline: "Fresh picks", primaryText: "Shop the new season today", label: "Main" });
    adIds.push(
      (await tool(page, "create_ad", { adSetId: adSet.id, creativeId, copyVariantId: copy.id, callToAction: "shop_now", landingUrl: "https://example.com" })).ad
        .id,
    );
  }
  await tool(page, "activate_ads", { adIds });
  await admin(["sandbox", "advance", "--workspace", workspaceId, "--hours", "24"]);
  await admin(["performance", "rollup", "--workspace", workspaceId]);

  for (const [viewport, name] of [
    [PHONE, "Phone test"],
    [DESKTOP, "Desk test"],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/performance");
    await expect(page.getByTestId("rollup-health")).toContainText("Figures as of");
    await expect(page.getByTestId("rollup-health").getByRole("alert")).toHaveCount(0);

    await page.getByRole("button", { name: "New creative test" }).click();
    const form = page.getByRole("form", { name: "New creative test" });
    await expect(form.getByLabel("Test name")).toBeFocused();
    await form.getByLabel("Test name").fill(name);
    await form.getByLabel("Ad set or ad group").selectOption({ label: "Spring set (Platform A, active)" });
    await form.getByRole("checkbox", { name: "north.png" }).check();
    await form.getByLabel("Compare on").selectOption("ctr");
    await form.getByLabel("Minimum sample").fill("50000");
    await form.getByLabel("Maximum days").fill("10");
    // One creative is not a test: the tool's own message is shown and announced.
    await form.getByRole("button", { name: "Start test" }).click();
    await expect(form.getByRole("alert")).toContainText("creativeIds");
    await form.getByRole("checkbox", { name: "south.png" }).check();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    if (viewport === DESKTOP) {
      await form.getByRole("alert").evaluate((alert) => (alert.style.display = "none")); // the picture shows the form, not the earlier error
      await form.scrollIntoViewIfNeeded();
      await screenshot(page, "performance-creative-test-form");
    }
    await form.getByRole("button", { name: "Start test" }).click();
    await expect(form).toHaveCount(0);
    await expect(page.getByRole("button", { name: "New creative test" })).toBeFocused();

    await expect(page.getByRole("status").filter({ hasText: `Started “${name}”` })).toBeVisible();
    const card = page
      .locator("div")
      .filter({ has: page.getByRole("heading", { level: 3, name, exact: true }) })
      .last();
    await expect(page.getByRole("heading", { level: 3, name, exact: true })).toBeVisible();
    await expect(page.getByRole("progressbar", { name: `${name}: leader's probability to be best` })).toBeVisible();
    await expect(card.getByText("running", { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // Stop asks first; Escape keeps the test running.
    const stop = page.getByRole("button", { name: `Stop test ${name}` });
    await stop.click();
    const dialog = page.getByRole("dialog", { name: `Stop “${name}”?` });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(stop).toBeVisible();
    await stop.click();
    await dialog.getByRole("button", { name: "Stop test" }).click();
    await expect(dialog).toBeHidden();
    await expect(stop).toHaveCount(0);
    await expect(page.getByRole("progressbar", { name: `${name}: leader's probability to be best` })).toHaveCount(0);
    await expect(card.getByText("stopped", { exact: true })).toBeVisible();
  }

  const { tests } = await tool(page, "list_creative_tests", {});
  expect(tests.map((t: any) => [t.name, t.status, t.creativeIds.length]).sort()).toEqual([
    ["Desk test", "stopped", 2],
    ["Phone test", "stopped", 2],
  ]);

  // A viewer sees the tests, with both controls disabled and the reason next to them.
  await tool(page, "create_creative_test", { name: "Still running", adSetId: adSet.id, metric: "ctr", creativeIds, minSample: 50_000, maxDays: 10 });
  const viewerEmail = uniqueEmail("viewer");
  await admin(["member", "add", "--workspace", workspaceId, "--email", viewerEmail, "--role", "viewer"]);
  await admin(["user", "password", "--email", viewerEmail, "--password", PASSWORD]);
  const viewerContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL }); // axe needs a page of its own context
  const viewer = await viewerContext.newPage();
  await viewer.goto("/dashboard/performance");
  await viewer.getByLabel("Email").fill(viewerEmail);
  await viewer.getByLabel("Password").fill(PASSWORD);
  await viewer.getByRole("button", { name: "Sign in" }).click();
  await expect(viewer).toHaveURL(/\/dashboard\/performance$/);
  await expect(viewer.getByRole("button", { name: "New creative test" })).toBeDisabled();
  await expect(viewer.getByRole("button", { name: "New creative test" })).toHaveAccessibleDescription(/can view creative tests but not start or stop them/);
  await expect(viewer.getByRole("button", { name: "Stop test Still running" })).toBeDisabled();
  await expect(viewer.getByRole("button", { name: "Stop test Still running" })).toHaveAccessibleDescription(
    /can view creative tests but not start or stop them/,
  );
  await expectNoAxeViolations(viewer);
  await viewerContext.close();
});
