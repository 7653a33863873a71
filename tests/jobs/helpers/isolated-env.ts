// Imported first by every jobs test: the config is parsed once per process on first use,
// so the fresh data directory must be in the environment before anything reads it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-jobs-"));
process.env.DATA_DIR = dataDir;
for (const key of ["DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_DEV", "INNGEST_BASE_URL"]) delete process.env[key];
