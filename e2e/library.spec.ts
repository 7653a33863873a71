import { mp4Video, pngImage } from "../tests/helpers/media-fixtures";
import { admin, expect, screenshot, signUp, switchToPro, test } from "./support/fixtures";

test("upload an image and a video, watch them complete, edit copy, play and seek the video, delete", async ({ page }) => {
  await signUp(page, { workspace: "Media Team" });
  await switchToPro(page);
  await page.goto("/dashboard/uploads");
  await expect(page.getByText("No uploads yet")).toBeVisible();

  // Client-side checks use the API's limits: a text file never leaves the browser.
  await page.getByTestId("upload-input").setInputFiles([
    { name: "summer-sale.png", mimeType: "image/png", buffer: await pngImage(1200, 628) },
    { name: "teaser.mp4", mimeType: "video/mp4", buffer: mp4Video(640, 360, 2) },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
  ]);
  await expect(page.getByTestId("sending-file").filter({ hasText: "notes.txt" })).toContainText("Not an image or video");
  await expect(page.getByTestId("sending-file").filter({ hasText: "summer-sale.png" })).toContainText("Sent");
  await expect(page.getByTestId("sending-file").filter({ hasText: "teaser.mp4" })).toContainText("Sent");

  const image = page.locator('[data-testid="upload-row"][data-file="summer-sale.png"]');
  const video = page.locator('[data-testid="upload-row"][data-file="teaser.mp4"]');
  await expect(image).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  await expect(video).toHaveAttribute("data-status", "completed", { timeout: 60_000 });
  await expect(image.getByTestId("platform-ids")).toContainText(/image hash [0-9a-f]{32}/);
  await expect(video.getByTestId("platform-ids")).toContainText(/video id \d+/);
  await screenshot(page, "uploads");

  await page.getByRole("link", { name: "Library", exact: true }).click();
  await expect(page.getByTestId("creative-tile")).toHaveCount(2);
  await page.getByLabel("Search by file name").fill("teaser");
  await expect(page.getByTestId("creative-tile")).toHaveCount(1);
  await page.getByLabel("Search by file name").fill("");
  await screenshot(page, "library");

  // The image's page: dimensions and copy variants edited inline with live counters.
  await page.getByRole("link", { name: /summer-sale\.png/ }).click();
  await expect(page.getByTestId("creative-dimensions")).toHaveText("1200 × 628 px");
  await page.getByRole("button", { name: "Add variant" }).click();
  const variant = page.getByTestId("copy-variant").first();
  await variant.getByLabel("Headline").fill("Summer sale: 30% off everything");
  await expect(variant.getByText("31 / 500")).toBeVisible();
  await variant.getByLabel("Label").fill("x".repeat(101));
  await expect(variant.getByText("101 / 100")).toBeVisible();
  await expect(variant.getByRole("button", { name: "Save variant" })).toBeDisabled();
  await variant.getByLabel("Label").fill("A");
  await variant.getByLabel("Primary text").fill("Bright colours for bright days.");
  await variant.getByRole("button", { name: "Save variant" }).click();
  await expect(variant.getByText("Saved")).toBeVisible();
  await variant.getByLabel("Headline").fill("Summer sale: 40% off everything");
  await variant.getByRole("button", { name: "Save changes" }).click();
  await expect(variant.getByText("Saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("copy-variant")).toHaveCount(1);
  await expect(page.getByTestId("copy-variant").getByLabel("Headline")).toHaveValue("Summer sale: 40% off everything");
  await screenshot(page, "creative-copy");

  // The video plays and seeks.
  await page.goto("/dashboard/library");
  await page.getByRole("link", { name: /teaser\.mp4/ }).click();
  const player = page.getByTestId("creative-video");
  await expect(player).toBeVisible();
  const played = await player.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    await el.play();
    await new Promise((r) => setTimeout(r, 600));
    const playedTo = el.currentTime;
    el.pause();
    el.currentTime = 1.5;
    await new Promise((r) => el.addEventListener("seeked", r, { once: true }));
    return { playedTo, seekedTo: el.currentTime, duration: el.duration };
  });
  expect(played.playedTo).toBeGreaterThan(0);
  expect(played.seekedTo).toBeCloseTo(1.5, 0);
  expect(played.duration).toBeGreaterThan(1.5);
  await screenshot(page, "creative-video");

  // Multi-select delete.
  await page.goto("/dashboard/library");
  await page.getByLabel("Select teaser.mp4").check();
  await page.getByRole("button", { name: /Delete 1 selected/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Deleted 1 creative.")).toBeVisible();
  await expect(page.getByTestId("creative-tile")).toHaveCount(1);
});

test("a failed upload shows its error and can be retried to completion, then dismissed", async ({ page }) => {
  await signUp(page);
  await switchToPro(page);
  await page.goto("/dashboard/uploads");
  await page.getByLabel("Push to").selectOption("platform_b");
  await page.getByTestId("upload-input").setInputFiles([{ name: "sandbox-fail-once.png", mimeType: "image/png", buffer: await pngImage(200, 200) }]);
  const row = page.locator('[data-testid="upload-row"][data-file="sandbox-fail-once.png"]');
  await expect(row).toHaveAttribute("data-status", "failed", { timeout: 90_000 });
  await row.getByRole("button", { name: "Retry" }).click();
  await expect(row).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
  await expect(row.getByTestId("platform-ids")).toContainText(/image id \d+/);
  await row.getByRole("button", { name: /Dismiss/ }).click();
  await expect(row).toHaveCount(0);
});

test("library budget: 500 creatives render in under 1.5 s with no layout shift from thumbnails", async ({ page }) => {
  await signUp(page, { workspace: "Big Library" });
  await page.goto("/dashboard/settings/plan");
  const seededWorkspace = (await page.getByTestId("workspace-id").textContent())!.trim();
  const folder = await admin(["folder", "create", "--workspace", seededWorkspace, "--name", "Campaign Q3"]);
  await admin(["library", "seed", "--workspace", seededWorkspace, "--count", "480"]);
  await admin(["library", "seed", "--workspace", seededWorkspace, "--count", "20", "--folder", folder.folderId!]);

  await page.addInitScript(() => {
    const w = window as unknown as { __perf: { lcp: number; fcp: number; cls: number } };
    w.__perf = { lcp: 0, fcp: 0, cls: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__perf.lcp = e.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "first-contentful-paint") w.__perf.fcp = e.startTime;
    }).observe({ type: "paint", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.__perf.cls += e.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto("/dashboard/library");
  await expect(page.getByTestId("creative-tile")).toHaveCount(500);
  // Let the eager thumbnails load, then scroll through so lazy ones load too.
  await page.waitForLoadState("networkidle");
  for (let y = 0; y < 4; y++) {
    await page.mouse.wheel(0, 2500);
    await page.waitForTimeout(250);
  }
  await page.waitForLoadState("networkidle");
  const perf = await page.evaluate(() => (window as unknown as { __perf: { lcp: number; fcp: number; cls: number } }).__perf);
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { ttfb: n.responseStart, domContentLoaded: n.domContentLoadedEventEnd };
  });
  console.log(
    `[budget] library with 500 creatives: FCP ${perf.fcp.toFixed(0)} ms, LCP ${perf.lcp.toFixed(0)} ms (budget 1500), CLS ${perf.cls.toFixed(4)} (budget 0), TTFB ${nav.ttfb.toFixed(0)} ms, DOMContentLoaded ${nav.domContentLoaded.toFixed(0)} ms`,
  );
  expect(perf.fcp).toBeGreaterThan(0);
  expect(perf.lcp).toBeLessThan(1500);
  expect(perf.cls).toBe(0);

  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "library-500");
  await page.getByRole("button", { name: "Campaign Q3" }).click();
  await expect(page.getByTestId("creative-tile")).toHaveCount(20);
  await page.getByLabel("New folder in Campaign Q3").fill("Teasers");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await page.getByRole("button", { name: "Teasers" }).click();
  await expect(page.getByText("This folder is empty")).toBeVisible();
});
