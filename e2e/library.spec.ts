import { mp4Video, pngImage } from "../tests/helpers/media-fixtures";
import { admin, expect, screenshot, signUp, subscribeToPro, test, workspaceIdOf } from "./support/fixtures";
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, holdPageScripts, PHONE } from "./support/pages";
import { layoutShifts, startSlowDocumentProxy, watchLayoutShifts } from "./support/slow-network";
import { paced, pacedBudget } from "../scripts/test-pace.mjs";

test("upload an image and a video, watch them complete, edit copy, play and seek the video, delete", async ({ page }) => {
  await signUp(page, { workspace: "Media Team" });
  await subscribeToPro(page);
  await page.goto("/dashboard/uploads");
  await expect(page.getByText("No uploads yet")).toBeVisible();

  // Client-side checks use the API's limits: a text file never leaves the browser.
  await page.getByTestId("upload-input").setInputFiles([
    { name: "summer-sale.png", mimeType: "image/png", buffer: await pngImage(1200, 628) },
    { name: "teaser.mp4", mimeType: "video/mp4", buffer: mp4Video(640, 360, 2) },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
  ]);
  await expect(page.getByTestId("sending-file").filter({ hasText: "notes.txt" })).toContainText("Not an image or video");
  // Sent files leave the sending list for the jobs table; the refused one stays until cleared.
  await expect(page.locator('[data-testid="upload-row"][data-file="summer-sale.png"]')).toBeVisible();
  await expect(page.locator('[data-testid="upload-row"][data-file="teaser.mp4"]')).toBeVisible();
  await expect(page.getByTestId("sending-file")).toHaveCount(1);

  const image = page.locator('[data-testid="upload-row"][data-file="summer-sale.png"]');
  const video = page.locator('[data-testid="upload-row"][data-file="teaser.mp4"]');
  await expect(image).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });
  await expect(video).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });
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
    // Playing means the clock moves: wait for the first time update past zero.
    await new Promise<void>((r) => {
      const moved = () => (el.currentTime > 0 ? r() : el.addEventListener("timeupdate", moved, { once: true }));
      moved();
    });
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
  await subscribeToPro(page);
  await page.goto("/dashboard/uploads");
  // The job list renders on the client: once it shows, the page is hydrated and the select is wired (a platform chosen
  // before that would not be the one sent).
  await expect(page.getByText("No uploads yet")).toBeVisible();
  await page.getByLabel("Push to").selectOption("platform_b");
  await page.getByTestId("upload-input").setInputFiles([{ name: "sandbox-fail-once.png", mimeType: "image/png", buffer: await pngImage(200, 200) }]);
  const row = page.locator('[data-testid="upload-row"][data-file="sandbox-fail-once.png"]');
  await expect(row).toHaveAttribute("data-status", "failed", { timeout: paced(90_000) });
  await row.getByRole("button", { name: "Retry" }).click();
  await expect(row).toHaveAttribute("data-status", "completed", { timeout: paced(90_000) });
  await expect(row.getByTestId("platform-ids")).toContainText(/image id \d+/);
  await row.getByRole("button", { name: /Dismiss/ }).click();
  await expect(row).toHaveCount(0);
});

test("files chosen before the Uploads page has hydrated are sent once it has", async ({ page }) => {
  await signUp(page);
  await subscribeToPro(page);
  // The page's scripts are held back: the server-rendered file input is there, but nothing listens to it yet.
  const releaseScripts = await holdPageScripts(page);
  await page.goto("/dashboard/uploads", { waitUntil: "commit" });
  await page.getByTestId("upload-input").setInputFiles([{ name: "early-pick.png", mimeType: "image/png", buffer: await pngImage(300, 200) }]);
  await expect(page.getByText("No uploads yet")).toHaveCount(0); // not hydrated: the job list renders on the client
  releaseScripts();
  // Sent at mount, beside the job list's first load: the row must still show (under load that load used to win, and
  // the list stayed empty with the upload completed behind it).
  const row = page.locator('[data-testid="upload-row"][data-file="early-pick.png"]');
  await expect(row).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });
  await page.reload();
  await expect(page.getByTestId("upload-row")).toHaveCount(1);
});

test("library budget: with 10,000 creatives the page paints within 1.5 s and a search answers within 300 ms", { tag: "@budget" }, async ({ page }) => {
  test.setTimeout(paced(300_000));
  await signUp(page, { workspace: "Big Library" });
  await page.goto("/dashboard/settings/plan");
  const seededWorkspace = (await page.getByTestId("workspace-id").textContent())!.trim();
  const folder = await admin(["folder", "create", "--workspace", seededWorkspace, "--name", "Campaign Q3"]);
  await admin(["library", "seed", "--workspace", seededWorkspace, "--count", "5000"]);
  await admin(["library", "seed", "--workspace", seededWorkspace, "--count", "4980"]);
  await admin(["library", "seed", "--workspace", seededWorkspace, "--count", "20", "--folder", folder.folderId!]);

  await page.addInitScript(() => {
    const w = window as unknown as { __perf: { lcp: number; fcp: number } };
    w.__perf = { lcp: 0, fcp: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__perf.lcp = e.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "first-contentful-paint") w.__perf.fcp = e.startTime;
    }).observe({ type: "paint", buffered: true });
  });
  await watchLayoutShifts(page);
  await page.goto("/dashboard/library");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Library");
  await expect(page.getByText("10,000 creatives in Big Library")).toBeVisible();
  await expect(page.getByTestId("creative-tile")).toHaveCount(60);
  await page.waitForLoadState("networkidle");
  const perf = await page.evaluate(() => (window as unknown as { __perf: { lcp: number; fcp: number } }).__perf);
  const shifts = await layoutShifts(page);
  const cls = shifts.reduce((sum, shift) => sum + shift.score, 0);
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { ttfb: n.responseStart, domContentLoaded: n.domContentLoadedEventEnd };
  });

  // Time to the first search result: from the keystroke to the matching tiles on screen (debounce included). Five
  // searches, each typed after a pause (so none waits for a burst of keystrokes to end), the first of them on a server
  // that has not searched yet; the budget holds their median. One search alone swung from 105 to 553 ms between
  // clean-clone runs while the page's paint moved by less than a factor of two (docs/dashboard.md).
  const searches = await page.evaluate(
    async (queries) => {
      const input = document.getElementById("library-search") as HTMLInputElement;
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      const times: number[] = [];
      for (const query of queries) {
        await new Promise((r) => setTimeout(r, 600));
        const t0 = performance.now();
        setValue.call(input, query);
        input.dispatchEvent(new Event("input", { bubbles: true }));
        await new Promise<void>((resolve) => {
          const done = () => {
            const tiles = [...document.querySelectorAll('[data-testid="creative-tile"]')];
            if (tiles.length > 0 && tiles.every((t) => t.textContent?.includes(query))) resolve();
            else requestAnimationFrame(done);
          };
          done();
        });
        times.push(performance.now() - t0);
      }
      return times;
    },
    ["seed-1234.png", "seed-0777.png", "seed-3100.png", "seed-0042.png", "seed-4242.png"],
  );
  const searchMs = [...searches].sort((a, b) => a - b)[Math.floor(searches.length / 2)]!;
  // The budgets are this machine's at its usual pace; `npm test` measures the pace just before the budgets run.
  const paint = pacedBudget(1500);
  const search = pacedBudget(300);
  console.log(
    `[budget] library with 10,000 creatives: FCP ${perf.fcp.toFixed(0)} ms, LCP ${perf.lcp.toFixed(0)} ms (${paint.text}), CLS ${cls.toFixed(4)}, TTFB ${nav.ttfb.toFixed(0)} ms, DOMContentLoaded ${nav.domContentLoaded.toFixed(0)} ms; search results ${searches.map((ms) => ms.toFixed(0)).join(", ")} ms, median ${searchMs.toFixed(0)} ms (${search.text})`,
  );
  expect(perf.fcp).toBeGreaterThan(0);
  expect(perf.lcp).toBeLessThan(paint.ms);
  expect(shifts, "layout shifts (what moved, from where to where)").toEqual([]);
  expect(searchMs).toBeLessThan(search.ms);
  // Both seeded batches hold a seed-4242.png.
  await expect(page.getByTestId("creative-tile")).toHaveCount(2);
  await page.getByLabel("Search by file name").fill("");

  // Infinite scroll: the next page arrives at the bottom of the grid.
  await expect(page.getByTestId("creative-tile")).toHaveCount(60);
  await page.getByTestId("creative-tile").last().scrollIntoViewIfNeeded();
  await expect(page.getByTestId("creative-tile")).toHaveCount(120);

  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "library-10000");
  await page.getByRole("navigation", { name: "Folders" }).getByRole("button", { name: "Campaign Q3", exact: true }).click();
  await expect(page.getByTestId("creative-tile")).toHaveCount(20);
  await page.getByLabel("New folder in Campaign Q3").fill("Teasers");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await page.getByRole("button", { name: "Teasers", exact: true }).click();
  await expect(page.getByText("This folder is empty")).toBeVisible();
});

test("on a slow connection the library paints as its page streams in and nothing painted moves, at 1440 and 390 px", async ({ page, baseURL }) => {
  test.setTimeout(paced(120_000));
  await signUp(page, { workspace: "Slow Line" });
  const workspaceId = await workspaceIdOf(page);
  const folder = await admin(["folder", "create", "--workspace", workspaceId, "--name", "Campaign Q3"]);
  await admin(["library", "seed", "--workspace", workspaceId, "--count", "80"]);
  await admin(["library", "seed", "--workspace", workspaceId, "--count", "20", "--folder", folder.folderId!]);
  // The document arrives 2 KB at a time, 40 ms apart: Chromium paints each part it has.
  const slow = await startSlowDocumentProxy(baseURL!);
  try {
    await watchLayoutShifts(page);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${slow.url}/dashboard/library`);
      await expect(page.getByTestId("creative-tile")).toHaveCount(60);
      await page.waitForLoadState("networkidle");
      expect(await layoutShifts(page), `layout shifts at ${viewport.width} px (what moved, from where to where)`).toEqual([]);
    }
  } finally {
    await slow.close();
  }
});

test("the library, the creative page and a video show thumbnails, not originals, at 390 and 1440 px with axe clean", async ({ page }) => {
  test.setTimeout(paced(180_000));
  await signUp(page, { workspace: "Thumbnails" });
  await subscribeToPro(page);
  // A 3000 × 2000 photo and a video, uploaded as a marketer would.
  await page.goto("/dashboard/uploads");
  await expect(page.getByText("No uploads yet")).toBeVisible(); // hydrated: the file input is wired
  await page.getByTestId("upload-input").setInputFiles([
    { name: "photo.png", mimeType: "image/png", buffer: await pngImage(3000, 2000) },
    { name: "clip.mp4", mimeType: "video/mp4", buffer: mp4Video(640, 360, 2) },
  ]);
  for (const file of ["photo.png", "clip.mp4"])
    await expect(page.locator(`[data-testid="upload-row"][data-file="${file}"]`)).toHaveAttribute("data-status", "completed", { timeout: paced(60_000) });
  // The video's poster is made in the background after its upload completes (its tile plays the video until then).
  await page.goto("/dashboard/library");
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("img", { name: "clip.mp4" })).toBeVisible({ timeout: paced(1_000) });
  }).toPass({ timeout: paced(60_000) });

  const mediaRequests: string[] = [];
  page.on("request", (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith("/api/media/")) mediaRequests.push(pathname);
  });
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/library");
    const tiles = page.getByTestId("creative-tile");
    await expect(tiles).toHaveCount(2, { timeout: paced(30_000) });
    for (const name of ["photo.png", "clip.mp4"]) {
      const img = page.getByRole("img", { name });
      await expect(img).toHaveJSProperty("complete", true);
      // The browser chose one of the two WebP widths, and the picture decoded.
      expect(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(/\/api\/media\/[^/]+\/thumbnails\/(320|960)\/[0-9a-f]{24}$/);
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    }
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }
  await page.getByRole("link", { name: /photo\.png/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("photo.png");
  await expect(page.getByRole("img", { name: "photo.png" }).first()).toHaveJSProperty("complete", true);
  await expect(page.getByTestId("view-original")).toHaveAttribute("href", /\/api\/media\/[^/]+$/);
  await expectNoAxeViolations(page);
  // No page asked for an original: only thumbnails (and the video's preview, when played).
  expect(mediaRequests.filter((p) => !/\/thumbnails\//.test(p))).toEqual([]);
});
