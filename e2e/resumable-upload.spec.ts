import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, signUp, subscribeToPro, test } from "./support/fixtures";
import { paced } from "../scripts/test-pace.mjs";

/** A real MP4 just over the dashboard's 20 MB resumable threshold (noise compresses badly), as a file on disk. */
function videoOver20Mb(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-e2e-tus-"));
  const file = path.join(dir, "launch_hookA_9x16.mp4");
  execFileSync("ffmpeg", [
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    "nullsrc=size=320x240:rate=10",
    "-vf",
    "noise=alls=100:allf=t+u,format=yuv420p",
    "-t",
    "22",
    "-c:v",
    "libx264",
    "-qp",
    "0",
    "-preset",
    "ultrafast",
    "-movflags",
    "+faststart",
    "-y",
    file,
  ]);
  return file;
}

test("a file over 20 MB goes from the Uploads page over tus and becomes an upload job like any other", async ({ page }) => {
  const video = videoOver20Mb();
  expect(fs.statSync(video).size).toBeGreaterThan(20 * 1024 * 1024);
  await signUp(page, { workspace: "Big Files" });
  await subscribeToPro(page);
  await page.goto("/dashboard/uploads");
  const tusRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/uploads/tus")) tusRequests.push(r.method());
  });
  // From disk: Playwright streams a path, where a 20 MB buffer crawls through the protocol.
  await page.getByTestId("upload-input").setInputFiles(video, { timeout: paced(60_000) });
  const row = page.locator('[data-testid="upload-row"][data-file="launch_hookA_9x16.mp4"]');
  await expect(row).toBeVisible({ timeout: paced(90_000) });
  await expect(row).toHaveAttribute("data-status", "completed", { timeout: paced(90_000) });
  expect(tusRequests).toContain("POST");
  expect(tusRequests).toContain("PATCH");
  fs.rmSync(path.dirname(video), { recursive: true, force: true });
});
