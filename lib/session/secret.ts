import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "@/lib/config";
import { defineService } from "@/lib/services";

/**
 * AUTH_SECRET, or (when unset) a random secret generated once and kept in
 * DATA_DIR/secrets/auth-secret (mode 0600), so `npm start` needs no env file.
 */
export const getAuthSecret = defineService("session.auth-secret", ({ config }) => loadAuthSecret(config));

function loadAuthSecret(config: Config): string {
  if (config.authSecret) return config.authSecret;
  const dir = path.join(config.dataDir, "secrets");
  const file = path.join(dir, "auth-secret");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    // "wx": only the first process to get here writes; the others read what it wrote.
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable secret; delete it to generate a new one`);
  return secret;
}
