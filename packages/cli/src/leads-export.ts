import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringFlag } from "./args.js";
import type { Context } from "./commands.js";
import { EXIT } from "./exit-codes.js";

/**
 * `adloom leads export [--form ID] [--submitted-after T] [--submitted-before T] [--out FILE]`:
 * GET /api/v1/leads/export.csv streamed to the file (or stdout) as it arrives, so any number of leads
 * downloads with flat memory.
 */
export async function exportLeads(ctx: Context): Promise<number> {
  const out = stringFlag(ctx.args, "out");
  const response = await ctx.client().transport.open("/api/v1/leads/export.csv", {
    query: {
      formId: stringFlag(ctx.args, "form"),
      submittedAfter: stringFlag(ctx.args, "submitted-after"),
      submittedBefore: stringFlag(ctx.args, "submitted-before"),
    },
    headers: { Accept: "text/csv" },
  });
  if (!response.body) return EXIT.ok;
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>);
  if (out) {
    await pipeline(body, fs.createWriteStream(out));
    process.stderr.write(`wrote ${out}\n`);
  } else {
    await pipeline(body, process.stdout, { end: false });
  }
  return EXIT.ok;
}
