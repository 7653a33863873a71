import { pngImage } from "../tests/helpers/media-fixtures";
import { admin, expect, screenshot, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { callTool } from "./support/tools";
import { paced } from "../scripts/test-pace.mjs";

test("upload two images, add copy, launch four ads from the library, activate them, advance a day, see spend", async ({ page }) => {
  await signUp(page, { workspace: "Ads Team" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);

  await page.goto("/dashboard/uploads");
  await page.getByTestId("upload-input").setInputFiles([
    { name: "beach.png", mimeType: "image/png", buffer: await pngImage(600, 600) },
    { name: "city.png", mimeType: "image/png", buffer: await pngImage(800, 600) },
  ]);
  for (const file of ["beach.png", "city.png"]) {
    await expect(page.locator(`[data-testid="upload-row"][data-file="${file}"]`)).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });
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
  // Calls to action read as words; the option's value stays the catalog's id.
  const cta = launch.getByLabel("Call to action");
  await expect(cta.locator("option")).toContainText(["Learn more", "Shop now", "Sign up"]);
  await cta.selectOption({ label: "Shop now" });
  await expect(cta).toHaveValue("shop_now");
  await cta.selectOption({ label: "Learn more" });
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

test("ad sets target regions and cities searched by name (a keyboard combobox); ad groups target places by name; both at phone and desktop width", async ({
  page,
}) => {
  await signUp(page, { workspace: "Places Team" });
  await subscribeToPro(page);
  await page.goto("/dashboard/ads");

  // Platform A: regions and cities beside the countries, chosen from the platform's search by keyboard.
  await page.getByLabel("New campaign name").fill("Local launch");
  await page.getByRole("button", { name: "Create campaign" }).click();
  const places = page.getByRole("combobox", { name: "Regions and cities" });
  const found = page.getByRole("listbox", { name: "Regions and cities: places found" });
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await places.fill("");
    await places.pressSequentially("ber");
    // Names that start with the text come first (Nuremberg only contains it).
    await expect(found.getByRole("option")).toHaveText(["Berlin, DE (region)", "Berlin, Berlin, DE (city)", "Nuremberg, Bavaria, DE (city)"]);
    await expect(places).toHaveAttribute("aria-expanded", "true");
    await expect(found.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await places.press("ArrowDown");
    await expect(found.getByRole("option", { name: "Berlin, Berlin, DE (city)" })).toHaveAttribute("aria-selected", "true");
    await expect(places).toHaveAttribute("aria-activedescendant", (await found.getByRole("option").nth(1).getAttribute("id"))!);
    await places.press("Escape");
    await expect(found).toBeHidden();
    await expect(places).toHaveAttribute("aria-expanded", "false");
  }
  await places.fill("");
  await places.pressSequentially("bavar");
  await expect(found.getByRole("option")).toHaveText(["Bavaria, DE (region)"]);
  await places.press("Enter");
  await places.pressSequentially("munich");
  await expect(found.getByRole("option")).toHaveText(["Munich, Bavaria, DE (city)"]);
  await places.press("Enter");
  const chosen = page.getByRole("list", { name: "Chosen regions and cities" });
  await expect(chosen.getByRole("listitem")).toHaveText([/^Bavaria, DE \(region\)/, /^Munich, Bavaria, DE \(city\)/]);
  await page.getByRole("list", { name: "Chosen countries" }).getByRole("button", { name: "Remove United States" }).click();
  await page.getByLabel("New ad set name").fill("Bavarian buyers");
  await page.getByRole("button", { name: "Create ad set" }).click();
  await expect(page.locator('[data-testid="ad-set"][data-name="Bavarian buyers"]')).toContainText("Regions Bavaria · Cities Munich");
  const { adSets } = await callTool(page, "list_ad_sets", {});
  expect(adSets.map((a: any) => [a.targetCountries, a.targetRegions, a.targetCities])).toEqual([[[], ["1651"], ["539519"]]]);

  // Platform B: every place (country, region, city) by name; the ad group stores TikTok's location ids.
  await page.getByRole("button", { name: /Platform B/ }).click();
  await page.getByLabel("New campaign name").fill("TikTok Texas");
  await page.getByRole("button", { name: "Create campaign" }).click();
  const locations = page.getByRole("combobox", { name: "Locations" });
  await locations.pressSequentially("austin");
  await expect(page.getByRole("option", { name: "Austin, Texas, US (city)" })).toBeVisible();
  await locations.press("Enter");
  await locations.pressSequentially("tex");
  await page.getByRole("option", { name: "Texas, US (region)" }).click();
  await expect(page.getByRole("list", { name: "Chosen locations" }).getByRole("listitem")).toHaveCount(2);
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
  }
  await page.getByLabel("New ad group name").fill("Texans");
  await page.getByRole("button", { name: "Create ad group" }).click();
  await expect(page.locator('[data-testid="ad-set"][data-name="Texans"]')).toContainText("Locations Austin, Texas");
  const groups = (await callTool(page, "list_ad_sets", {})).adSets.filter((a: any) => a.platform === "platform_b");
  expect(groups.map((g: any) => g.locationIds)).toEqual([["4671654", "4736286"]]);
});
