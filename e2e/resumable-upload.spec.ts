import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, signUp, switchToPro, test } from "./support/fixtures";

/** A real MP4 just over the dashboard's 20 MB resumable threshold (noise compresses badly). */
function videoOver20Mb(): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-e2e-tus-"));
  const file = path.join(dir, "big.mp4");
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
  const data = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return data;
}

test("a file over 20 MB goes from the Uploads page over tus and becomes an upload job like any other", async ({ page }) => {
  const video = videoOver20Mb();
  expect(video.length).toBeGreaterThan(20 * 1024 * 1024);
  await signUp(page, { workspace: "Big Files" });
  await switchToPro(page);
  await page.goto("/dashboard/uploads");
  const tusRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/uploads/tus")) tusRequests.push(r.method());
  });
  await page.getByTestId("upload-input").setInputFiles([{ name: "launch_hookA_9x16.mp4", mimeType: "video/mp4", buffer: video }]);
  const row = page.locator('[data-testid="upload-row"][data-file="launch_hookA_9x16.mp4"]');
  await expect(row).toBeVisible({ timeout: 90_000 });
  await expect(row).toHaveAttribute("data-status", "completed", { timeout: 90_000 });
  expect(tusRequests).toContain("POST");
  expect(tusRequests).toContain("PATCH");
});
