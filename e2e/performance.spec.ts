import { pngImage } from "../tests/helpers/media-fixtures";
import { admin, expect, screenshot, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { callTool as tool } from "./support/tools";
import { paced } from "../scripts/test-pace.mjs";

test("the Performance page charts, labels and creative tests after a week of delivery, at phone and desktop width", async ({ page }) => {
  test.setTimeout(paced(240_000));
  await signUp(page, { workspace: "Performance Team" });
  await subscribeToPro(page);
  const workspaceId = await workspaceIdOf(page);

  await page.goto("/dashboard/uploads");
  const files = ["hero.png", "alt.png", "third.png"];
  await page
    .getByTestId("upload-input")
    .setInputFiles(await Promise.all(files.map(async (name, i) => ({ name, mimeType: "image/png", buffer: await pngImage(400 + 20 * i, 400) }))));
  for (const file of files)
    await expect(page.locator(`[data-testid="upload-row"][data-file="${file}"]`)).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });

  let creatives: any[] = [];
  await expect(async () => {
    creatives = (await tool(page, "list_creatives", { limit: 10 })).creatives.filter((c: any) => c.status === "ready");
    expect(creatives).toHaveLength(3);
  }).toPass({ timeout: paced(60_000) });
  const { campaign } = await tool(page, "create_campaign", { platform: "platform_a", name: "Autumn", objective: "sales" });
  const { adSet } = await tool(page, "create_ad_set", {
    campaignId: campaign.id,
    platform: "platform_a",
    name: "US",
    budget: { type: "daily", amountMinor: 20_000 },
    targetCountries: ["US"],
  });
  const adIds: string[] = [];
  for (const c of creatives) {
    const copy = await tool(page, "create_copy_variant", {
      creativeId: c.id,
      headline: "Fresh picks",
      primaryText: "Shop the new season today",
      label: "Main",
    });
    adIds.push(
      (
        await tool(page, "create_ad", {
          adSetId: adSet.id,
          creativeId: c.id,
          copyVariantId: copy.id,
          callToAction: "shop_now",
          landingUrl: "https://example.com",
        })
      ).ad.id,
    );
  }
  await tool(page, "activate_ads", { adIds });
  await tool(page, "create_creative_test", {
    name: "Hero against alt",
    adSetId: adSet.id,
    metric: "ctr",
    creativeIds: creatives.slice(0, 2).map((c) => c.id),
    minSample: 100_000,
    maxDays: 30,
  });
  for (let day = 0; day < 7; day++) {
    await admin(["sandbox", "advance", "--workspace", workspaceId, "--hours", "24"]);
    await admin(["performance", "rollup", "--workspace", workspaceId]);
  }

  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/performance");
    await expect(page.getByRole("heading", { level: 1, name: "Performance" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("figure")).toHaveCount(3);
    await expect(
      page
        .getByRole("figure", { name: /^Spend per day/ })
        .locator("svg.recharts-surface")
        .first(),
    ).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(3);
    await expect(page.getByRole("heading", { name: "Hero against alt" })).toBeVisible();
    await expect(page.getByRole("progressbar", { name: /leader's probability to be best/ })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }
  await screenshot(page, "performance-desktop");

  // Sorting by CTR (descending first click), then the chart per campaign.
  await page.getByRole("button", { name: /^CTR/ }).click();
  await expect(page.getByRole("columnheader", { name: /CTR/ })).toHaveAttribute("aria-sort", "descending");
  await page.getByRole("combobox", { name: "Chart per creative or campaign" }).selectOption("campaign");
  await expect(page.getByRole("figure", { name: /^Spend per day/ }).getByText("Autumn")).toBeVisible();
  // The goal switches the third chart to ROAS.
  await page.getByRole("combobox", { name: /^Primary goal/ }).selectOption("roas");
  await expect(page.getByRole("figure", { name: /^ROAS per day/ })).toBeVisible();
});
