import { pngImage } from "../tests/helpers/media-fixtures";
import { expect, screenshot, signUp, subscribeToPro, test } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, holdPageScripts, PHONE } from "./support/pages";
import { callTool as tool, readyCreative } from "./support/tools";

test("the creative page shows one preview, which is the pin area, and the copy right after it on a phone", async ({ page }) => {
  await signUp(page, { workspace: "Creative Phone" });
  await subscribeToPro(page);
  const creativeId = await readyCreative(page, "poster.png", 800);
  await tool(page, "create_copy_variant", { creativeId, headline: "Autumn drop", primaryText: "New colours for cold days.", label: "Main" });

  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto(`/dashboard/library/${creativeId}`);
    const preview = page.locator("[data-creative-preview]");
    const pinArea = preview.getByTestId("pin-area");
    await expect(pinArea.getByRole("img")).toHaveJSProperty("complete", true);
    // One picture of the creative on the page: the stand-in thumbnail made way for the pin area.
    await expect(page.getByRole("img", { name: /^poster\.png/ })).toHaveCount(1);
    const previewBox = (await preview.boundingBox())!;
    const copyBox = (await page.getByRole("heading", { name: "Copy variants" }).boundingBox())!;
    if (viewport === PHONE) {
      // The copy follows the picture directly: its heading is within a short gap below it.
      expect(copyBox.y).toBeGreaterThan(previewBox.y + previewBox.height);
      expect(copyBox.y - (previewBox.y + previewBox.height)).toBeLessThan(80);
    } else {
      expect(copyBox.y).toBeLessThan(previewBox.y + previewBox.height); // beside it
    }
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    if (viewport === PHONE) await screenshot(page, "creative-one-preview-phone");
  }

  // The preview is where comments are pinned.
  await page
    .locator("[data-creative-preview]")
    .getByTestId("pin-area")
    .getByRole("img")
    .click({ position: { x: 40, y: 40 } });
  await expect(page.getByText("Pinned", { exact: true })).toBeVisible();
  await page.getByLabel("New comment").fill("Move the logo up");
  await page.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(page.locator("[data-creative-preview]").getByTestId("pin-area").getByTitle("Move the logo up")).toBeVisible();
});

test.describe("version upload", () => {
  // The refused file is the tool's 400, which the browser logs as a failed request.
  test.use({ allowConsole: [/^Failed to load resource: the server responded with a status of 400 \(Bad Request\)$/] });

  test("a new version is uploaded from the creative page and becomes the current one, at phone and desktop width", async ({ page }) => {
    await signUp(page, { workspace: "Versions Team" });
    await subscribeToPro(page);
    const creativeId = await readyCreative(page, "banner.png", 600);
    await page.setViewportSize(PHONE);
    await page.goto(`/dashboard/library/${creativeId}`);
    await expect(page.getByRole("button", { name: "v1 (current)" })).toBeVisible();
    await page.getByLabel("Upload a new version").setInputFiles({ name: "banner-v2.png", mimeType: "image/png", buffer: await pngImage(640, 600) });
    await expect(page.getByTestId("version-upload-status")).toHaveText("Version 2 uploaded: it is now the current version.");
    await expect(page.getByRole("button", { name: "v2 (current)" })).toBeVisible();
    await expect(page.locator("[data-creative-preview]").getByRole("img", { name: "banner.png, version 2" })).toBeVisible();
    const { versions } = await tool(page, "list_creative_versions", { creativeId });
    expect(versions.map((v: any) => [v.number, v.current, v.width])).toEqual([
      [1, false, 600],
      [2, true, 640],
    ]);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // A file of the other kind is refused with the tool's own message, in the page.
    await page.setViewportSize(DESKTOP);
    await page.getByLabel("Upload a new version").setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not a picture") });
    await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toBeVisible();
    await expect(page.getByRole("button", { name: "v2 (current)" })).toBeVisible();
    await expectNoAxeViolations(page);

    // A file chosen before the page has hydrated (the input is in the server-rendered page) is uploaded once it has.
    const releaseScripts = await holdPageScripts(page);
    await page.goto(`/dashboard/library/${creativeId}`, { waitUntil: "commit" });
    await page.getByLabel("Upload a new version").setInputFiles({ name: "banner-v3.png", mimeType: "image/png", buffer: await pngImage(660, 600) });
    releaseScripts();
    await expect(page.getByTestId("version-upload-status")).toHaveText("Version 3 uploaded: it is now the current version.");
    await expect(page.getByRole("button", { name: "v3 (current)" })).toBeVisible();
  });
});
