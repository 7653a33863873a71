import sharp from "sharp";
import { waitFor } from "../helpers/library";
import { toolResult } from "../tools/helpers";

/** Waits until the import run has completed, and returns it with its items. */
export function finishedRun(key: string, runId: string, timeoutMs = 60_000): Promise<any> {
  return waitFor(
    `import run ${runId} to complete`,
    async () => {
      const { runs } = await toolResult(key, "list_import_runs", { runId });
      return runs[0].status !== "running" ? runs[0] : undefined;
    },
    timeoutMs,
  );
}

/** Waits until every imported item of the run has its creative (the upload job filed it). */
export function runWithCreatives(key: string, runId: string, timeoutMs = 60_000): Promise<any> {
  return waitFor(
    `creatives of import run ${runId}`,
    async () => {
      const { runs } = await toolResult(key, "list_import_runs", { runId });
      const run = runs[0];
      return run.status !== "running" && run.items.every((i: any) => i.status !== "imported" || i.creativeId) ? run : undefined;
    },
    timeoutMs,
  );
}

/** A 200x150 grey PNG with structure (gradients, waves), as photos have: perceptual hashes need some. */
export function structuredPicture(value: (x: number, y: number) => number): Promise<Buffer> {
  const width = 200;
  const height = 150;
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = Math.max(0, Math.min(255, Math.round(value(x, y))));
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}
