import { jpegImage, pngImage } from "../tests/helpers/media-fixtures";
import { startS3Fake } from "../tests/helpers/s3-fake";
import { expect, signUp, test } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE } from "./support/pages";
import { paced } from "../scripts/test-pace.mjs";

test("import: connect a bucket, browse and import picked files, watch a folder and sync it; at 1440 and 390 px", async ({ page }) => {
  const s3 = await startS3Fake(`e2e-${Date.now()}`);
  try {
    await s3.put("spring/hero.png", await pngImage(320, 200), "image/png");
    await s3.put("spring/square.jpg", await jpegImage(100, 100), "image/jpeg");
    await s3.put("watched/new.png", await pngImage(64, 48), "image/png");
    await page.setViewportSize(DESKTOP);
    await signUp(page, { workspace: "Import Co" });
    await page.getByRole("link", { name: "Import" }).click();
    await expect(page.getByRole("heading", { name: "Import", level: 1 })).toBeVisible();
    await expect(page.getByText("No storage connected yet")).toBeVisible();
    await expectNoAxeViolations(page);

    const form = page.getByRole("form", { name: "Connect storage" });
    await form.getByLabel("Name (optional)").fill("Creative bucket");
    await form.getByLabel("Bucket").fill(s3.bucket);
    await form.getByLabel("Endpoint (optional)").fill(s3.endpoint);
    await form.getByLabel("Access key id").fill(s3.accessKeyId);
    await form.getByLabel("Secret access key").fill(s3.secretAccessKey);
    await form.getByRole("button", { name: "Connect" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Connected Creative bucket." })).toBeVisible();
    const connections = page.getByRole("table", { name: "Storage connections" });
    await expect(connections.getByRole("row").filter({ hasText: "Creative bucket" })).toContainText("Active");

    await page.getByRole("button", { name: "Browse Creative bucket" }).click();
    const listing = page.getByRole("list", { name: "Files and folders" });
    await listing.getByRole("button", { name: "spring/" }).click();
    await listing.getByLabel("hero.png").check();
    await page.getByRole("button", { name: "Import 1 selected" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Importing 1 file." })).toBeVisible();
    const runs = page.getByRole("table", { name: "Import runs" });
    await expect(runs.getByRole("row").nth(1)).toContainText("Done", { timeout: paced(30_000) });
    await expect(runs.getByRole("row").nth(1).getByRole("cell").nth(2)).toHaveText("1");
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Up one level" }).click();
    await listing.getByRole("button", { name: "watched/" }).click();
    await page.getByRole("button", { name: "Watch this folder" }).click();
    const watched = page.getByRole("table", { name: "Watched folders" });
    await expect(watched).toContainText("watched/");
    await page.getByRole("button", { name: "Sync now watched/" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Syncing 1 new file." })).toBeVisible();
    await expect(runs.getByRole("row").nth(1)).toContainText("Folder sync");
    await expect(runs.getByRole("row").nth(1)).toContainText("Done", { timeout: paced(30_000) });
    await page.getByRole("button", { name: "Sync now watched/" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Nothing new in the folder." })).toBeVisible();

    await page.setViewportSize(PHONE);
    await page.reload();
    await expect(page.getByRole("table", { name: "Import runs" })).toContainText("Folder sync");
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  } finally {
    await s3.close();
  }
});

test("import: connect Google Drive and Dropbox by signing in, browse and import a picked file; at 1440 and 390 px", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signUp(page, { workspace: "Cloud Import Co" });
  await page.getByRole("link", { name: "Import" }).click();
  await expect(page.getByRole("link", { name: "Connect Google Drive" })).toBeVisible();
  await expectNoAxeViolations(page);

  // The fake's consent page sends the browser straight back to the callback, which lands here.
  await page.getByRole("link", { name: "Connect Google Drive" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Connected Google Drive (dana@example.com)." })).toBeVisible();
  const connections = page.getByRole("table", { name: "Storage connections" });
  await expect(connections.getByRole("row").filter({ hasText: "dana@example.com" })).toContainText("Active");
  await page.getByRole("button", { name: "Browse Google Drive (dana@example.com)" }).click();
  const listing = page.getByRole("list", { name: "Files and folders" });
  await listing.getByRole("button", { name: "Campaign/" }).click();
  await listing.getByLabel("banner.png").check();
  await page.getByRole("button", { name: "Import 1 selected" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Importing 1 file." })).toBeVisible();
  const runs = page.getByRole("table", { name: "Import runs" });
  await expect(runs.getByRole("row").nth(1)).toContainText("Done", { timeout: paced(30_000) });
  await expectNoAxeViolations(page);

  await page.setViewportSize(PHONE);
  await page.getByRole("link", { name: "Connect Dropbox" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Connected Dropbox (dee@example.com)." })).toBeVisible();
  await page.getByRole("button", { name: "Browse Dropbox (dee@example.com)" }).click();
  await listing.getByRole("button", { name: "Campaign/" }).click();
  await listing.getByLabel("story.png").check();
  await page.getByRole("button", { name: "Import 1 selected" }).click();
  await expect(runs.getByRole("row").nth(1)).toContainText("Done", { timeout: paced(30_000) });
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
});
