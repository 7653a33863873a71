import { createRequire } from "node:module";
import path from "node:path";
import type { TusClientModule } from "@adloom/sdk";
import { configDir } from "./config.js";

type BundledTus = TusClientModule & { FileUrlStorage: new (file: string) => unknown };

/**
 * tus-js-client as bundled into dist/vendor by the build, with a URL store in the config
 * directory: an `uploads push` cut off mid-file resumes from the server's offset when run again.
 */
export function resumableUploads(): { tus: TusClientModule; urlStorage: unknown } {
  const require = createRequire(import.meta.url);
  let tus: BundledTus;
  try {
    tus = require("./vendor/tus-js-client.cjs") as BundledTus;
  } catch {
    tus = require("tus-js-client") as BundledTus; // run from source (tests), where dist/vendor is not built
  }
  return { tus, urlStorage: new tus.FileUrlStorage(path.join(configDir(), "resumable-uploads.json")) };
}
