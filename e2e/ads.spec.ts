import { pngImage } from "../tests/helpers/media-fixtures";
import { admin, expect, screenshot, signUp, switchToPro, test } from "./support/fixtures";
import { expectNoAxeViolations } from "./support/pages";

test("upload two images, add copy, launch four ads from the library, activate them, advance a day, see spend", async ({ page }) => {
  await signUp(page, { workspace: "Ads Team" });
  await switchToPro(page);
  const workspaceId = (await page.getByTestId("workspace-id").textContent())!.trim();

  await page.goto("/dashboard/uploads");
  await page.getByTestId("upload-input").setInputFiles([
    { name: "beach.png", mimeType: "image/png", buffer: await pngImage(600, 600) },
    { name: "city.png", mimeType: "image/png", buffer: await pngImage(800, 600) },
  ]);
  for (const file of ["beach.png", "city.png"]) {
    await expect(page.locator(`[data-testid="upload-row"][data-file="${file}"]`)).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  }

  // Two copy variants on one image: by default each creative runs its own copy; all-by-all only when chosen.
  await page.getByRole("link", { name: "Library", exact: true }).click();
  await page.getByRole("link", { name: /beach\.png/ }).click();
  for (const [label, headline] of [
    ["Sun", "Sun's out"],
    ["Sale", "Summer sale"],
  ]) {
    await page.getByRole("button", { name: "Add variant" }).click();
    const variant = page.getByTestId("copy-variant").first();
    await variant.getByLabel("Label").fill(label!);
    await variant.getByLabel("Headline").fill(headline!);
    await variant.getByLabel("Primary text").fill("New season, new colours.");
    await variant.getByRole("button", { name: "Save variant" }).click();
    await expect(variant.getByText("Saved")).toBeVisible();
  }

  await page.getByRole("link", { name: "Ads", exact: true }).click();
  await expect(page.getByRole("button", { name: /Platform A/ })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText("America/New_York")).toBeVisible();
  await page.getByLabel("New campaign name").fill("Summer launch");
  await page.getByRole("button", { name: "Create campaign" }).click();
  const campaign = page.locator('[data-testid="campaign"][data-name="Summer launch"]');
  await expect(campaign).toBeVisible();
  // Platform A's form asks for countries; platform B's for location ids.
  await expect(page.getByLabel("Target countries")).toBeVisible();
  await expect(page.getByLabel("Location ids")).toHaveCount(0);
  await page.getByLabel("New ad set name").fill("US buyers");
  await page.getByLabel("Daily budget (USD)").fill("50");
  await page.getByLabel("Target countries").fill("US");
  await page.getByRole("button", { name: "Create ad set" }).click();
  const adSet = page.locator('[data-testid="ad-set"][data-name="US buyers"]');
  await expect(adSet).toContainText("50.00 USD per day");

  await adSet.getByRole("button", { name: "Launch from library" }).click();
  const launch = adSet.getByTestId("launch-from-library");
  await launch.getByRole("checkbox", { name: /beach\.png/ }).check();
  await launch.getByRole("checkbox", { name: /city\.png/ }).check();
  // A picked creative's own copy is chosen until unticked, and pairs only with that creative.
  await expect(launch.getByRole("checkbox", { name: /Sun/ })).toBeChecked();
  await expect(launch.getByRole("checkbox", { name: /Sale/ })).toBeChecked();
  await expect(launch.getByRole("radio", { name: /Each creative with its own copy/ })).toBeChecked();
  await launch.getByRole("button", { name: "Preview 3 ads" }).click();
  await expect(launch.getByTestId("build-count")).toContainText("3 ads to build: each creative with its own copy");
  const rows = launch.getByTestId("matrix-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "beach.png" })).toHaveCount(2);
  await expect(rows.filter({ hasText: "city.png" })).toHaveText(/city\.png\s*no copy/);
  await expect(adSet.locator('[data-testid="ad-row"]')).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, "ads-pairing");
  await launch.getByRole("radio", { name: /Every copy with every creative/ }).check();
  await launch.getByRole("button", { name: "Preview 4 ads" }).click();
  await expect(launch.getByTestId("build-count")).toContainText("4 ads to build: every copy with every creative");
  await expect(launch.getByTestId("matrix-row")).toHaveCount(4);
  await expect(launch.getByTestId("matrix-row").filter({ hasText: "passes Platform A checks" })).toHaveCount(4);
  await expectNoAxeViolations(page);
  await launch.getByRole("button", { name: "Create 4 paused ads" }).click();
  await expect(launch.getByTestId("build-result")).toHaveText("Created 4 paused ads.");
  await expect(adSet.locator('[data-testid="ad-row"][data-status="paused"]')).toHaveCount(4);

  await launch.getByRole("button", { name: "Activate 4 ads" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("activation-spend")).toContainText("This switches on 50.00 USD per day of spend (US buyers)");
  await dialog.getByRole("button", { name: "Activate and spend" }).click();
  await expect(adSet.locator('[data-testid="ad-row"][data-status="active"]')).toHaveCount(4);
  // The ad set and campaign were switched on with them.
  await expect(campaign.getByText("active", { exact: true })).toBeVisible();

  const summary = await admin<{ spendMinor: number; adsDelivered: number }>(["sandbox", "advance", "--workspace", workspaceId, "--hours", "24"]);
  expect(summary.adsDelivered).toBe(4);
  expect(summary.spendMinor).toBeGreaterThan(0);
  await adSet.getByRole("button", { name: "Refresh" }).click();
  await expect(adSet.getByTestId("ad-spend-7d").first()).not.toHaveText("0.00 USD");
  const weekly = await adSet.getByTestId("ad-spend-7d").allTextContents();
  const total = weekly.reduce((s, t) => s + Number(t.replace(/[^\d.]/g, "")), 0);
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(100); // at most two days of a 50.00 daily budget
  await expectNoAxeViolations(page);
  await screenshot(page, "ads");

  // Phone width: the page still works (tables scroll inside their own box).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(adSet.locator('[data-testid="ad-row"][data-status="active"]')).toHaveCount(4);
  await expect(adSet.getByRole("button", { name: "Launch from library" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await screenshot(page, "ads-phone");
});
