import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { defineService, getConfig } from "@/lib/services";

/**
 * The signing key the embedded runner signs its in-process executor requests with,
 * so the job endpoint rejects unsigned calls from outside. Generated once and kept in
 * `<DATA_DIR>/secrets/inngest-signing-key` (mode 0600), so every bundle of the process
 * (routes, instrumentation) and every restart use the same key.
 */
const KEY_PATTERN = /^signkey-prod-[0-9a-f]{64}$/;
/** Keys read so far, by data directory. */
const cachedKeys = defineService("jobs.signing-keys", () => new Map<string, string>());

export function signingKeyPath(dataDir: string): string {
  return path.join(dataDir, "secrets", "inngest-signing-key");
}

function readKey(file: string): string {
  const key = fs.readFileSync(file, "utf8").trim();
  if (!KEY_PATTERN.test(key)) throw new Error(`${file} does not hold a valid signing key; delete it to generate a new one`);
  return key;
}

export function getEmbeddedSigningKey(dataDir = getConfig().dataDir): string {
  const keys = cachedKeys();
  const cached = keys.get(dataDir);
  if (cached) return cached;
  const file = signingKeyPath(dataDir);
  let key: string;
  try {
    key = readKey(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, `signkey-prod-${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    } catch (writeErr) {
      if ((writeErr as NodeJS.ErrnoException).code !== "EEXIST") throw writeErr;
    }
    key = readKey(file);
  }
  keys.set(dataDir, key);
  return key;
}
