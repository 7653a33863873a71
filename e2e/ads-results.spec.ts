import type { Locator, Page } from "@playwright/test";
import { admin, expect, screenshot, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { callTool as tool, readyCreative } from "./support/tools";
import { paced } from "../scripts/test-pace.mjs";

/** Tops of a row's cells: one line at desktop; on a phone card the name across, then the figures two to a line. */
async function cellTops(row: Locator): Promise<number[]> {
  return row.locator(":scope > th, :scope > td").evaluateAll((cells) => cells.map((c) => Math.round(c.getBoundingClientRect().top)));
}

async function expectCard(row: Locator) {
  const [name, first, second, third] = await cellTops(row);
  expect(first).toBeGreaterThan(name!); // the name heads the card
  expect(second).toBe(first); // two figures side by side
  expect(third).toBeGreaterThan(first!);
}

async function expectOneLine(row: Locator) {
  const tops = await cellTops(row);
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(2);
}

async function liveAds(page: Page, workspaceId: string) {
  const creativeIds = [await readyCreative(page, "spring.png", 600), await readyCreative(page, "autumn.png", 640)];
  const { campaign } = await tool(page, "create_campaign", { platform: "platform_a", name: "Spring sale", objective: "traffic" });
  const { adSet } = await tool(page, "create_ad_set", {
    campaignId: campaign.id,
    platform: "platform_a",
    name: "US shoppers",
    budget: { type: "daily", amountMinor: 20_000 },
    targetCountries: ["US"],
  });
  const adIds: string[] = [];
  for (const creativeId of creativeIds) {
    const copy = await tool(page, "create_copy_variant", { creativeId, headline: "Fresh picks", primaryText: "Shop the new season", label: "Main" });
    const { ad } = await tool(page, "create_ad", {
      adSetId: adSet.id,
      creativeId,
      copyVariantId: copy.id,
      callToAction: "shop_now",
      landingUrl: "https://example.com",
    });
    adIds.push(ad.id);
  }
  await tool(page, "activate_ads", { adIds });
  for (let day = 0; day < 3; day++) {
    await admin(["sandbox", "advance", "--workspace", workspaceId, "--hours", "24"]);
    await admin(["performance", "rollup", "--workspace", workspaceId]);
  }
  return { campaign, adSet, adIds };
}

test("the Ads page shows results per campaign, ad set and ad with totals over a date range; its tables are cards on a phone", async ({ page }) => {
  test.setTimeout(paced(240_000));
  await signUp(page, { workspace: "Results Team" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);
  await page.goto("/dashboard/ads");
  await expect(page.getByRole("heading", { name: "No results yet" })).toBeVisible();
  const { campaign, adIds } = await liveAds(page, workspaceId);

  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/ads");
    const results = page.getByRole("region", { name: "Results per campaign, ad set and ad" });
    await expect(results).toBeVisible();
    const campaignRow = results.locator(`[data-testid="result-row"][data-id="${campaign.id}"]`);
    await expect(campaignRow).toContainText("Campaign · Traffic to a website");
    await expect(campaignRow).toContainText("Spring sale");
    await expect(results.locator('[data-testid="result-row"][data-level="ad"]')).toHaveCount(2);
    const totals = results.getByTestId("results-totals");
    await expect(totals).toContainText("Total");
    expect(Number(await totals.getAttribute("data-impressions"))).toBeGreaterThan(0);
    // Objectives read as words in the campaign list too.
    await expect(page.locator('[data-testid="campaign"][data-name="Spring sale"]')).toContainText("Objective: Traffic to a website");
    const adRow = page.locator('[data-testid="ad-row"]').first();
    await expect(adRow).toBeVisible();
    if (viewport === PHONE) {
      await expectCard(campaignRow);
      await expectCard(totals);
      await expectCard(adRow);
    } else {
      await expectOneLine(campaignRow);
      await expectOneLine(adRow);
    }
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.getByRole("heading", { name: "Results", exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, viewport === PHONE ? "ads-results-phone" : "ads-results");
  }

  // A range chosen in the form: one day, whose totals are part of the week's.
  await page.setViewportSize(DESKTOP);
  await page.goto("/dashboard/ads");
  const week = Number(await page.getByTestId("results-totals").getAttribute("data-impressions"));
  const until = (await page.getByTestId("results-range").getAttribute("data-until"))!;
  const { rows } = await tool(page, "get_insights", { level: "ad", ids: adIds, breakdown: "day", until });
  const day = rows.filter((r: any) => r.impressions > 0).map((r: any) => r.date as string)[0]!;
  await page.getByLabel("From").fill(day);
  await page.getByLabel("To").fill(day);
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${day}&to=${day}`));
  await expect(page.getByTestId("results-range")).toHaveAttribute("data-since", day);
  const oneDay = Number(await page.getByTestId("results-totals").getAttribute("data-impressions"));
  const dayInsights = rows.filter((r: any) => r.date === day).reduce((s: number, r: any) => s + r.impressions, 0);
  expect(oneDay).toBe(dayInsights);
  expect(oneDay).toBeLessThan(week);
  // A start after the end says why instead of showing figures.
  await page.goto(`/dashboard/ads?from=${until}&to=${day}`);
  await expect(page.getByTestId("results-range-problem")).toContainText("The start date must not be after the end date.");

  // The Performance table is cards with the key figures on a phone, sorted by a select there.
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/performance");
    const row = page.getByTestId("creative-performance-row").first();
    await expect(row).toBeVisible();
    if (viewport === PHONE) {
      await expectCard(row);
      await expect(page.getByLabel("Sort by")).toBeVisible();
      await page.getByLabel("Sort by").selectOption({ label: "Impressions" });
      await expect(page.getByTestId("creative-performance-row")).toHaveCount(2);
    } else {
      await expectOneLine(row);
      await expect(page.getByLabel("Sort by")).toBeHidden();
    }
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    if (viewport === PHONE) await screenshot(page, "performance-phone");
  }
});
