import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface SavedConfig {
  apiKey?: string;
  baseUrl?: string;
}

export const DEFAULT_BASE_URL = "http://localhost:3000";

/** ~/.config/adloom (or $XDG_CONFIG_HOME/adloom), unless $ADLOOM_CONFIG_DIR names another. */
export function configDir(env = process.env): string {
  if (env.ADLOOM_CONFIG_DIR) return env.ADLOOM_CONFIG_DIR;
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config"), "adloom");
}

export function configFile(env = process.env): string {
  return path.join(configDir(env), "config.json");
}

export function readConfig(env = process.env): SavedConfig {
  try {
    return JSON.parse(fs.readFileSync(configFile(env), "utf8")) as SavedConfig;
  } catch {
    return {};
  }
}

/** Writes the config readable by its owner only (it holds the API key). */
export function writeConfig(config: SavedConfig, env = process.env): string {
  const file = configFile(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

/** Where the key and base URL come from: flags, then environment, then the saved config. */
export function resolveConnection(
  flags: { apiKey?: string | undefined; baseUrl?: string | undefined },
  env = process.env,
): { apiKey?: string | undefined; baseUrl: string } {
  const saved = readConfig(env);
  return {
    apiKey: flags.apiKey || env.ADLOOM_API_KEY || saved.apiKey,
    baseUrl: flags.baseUrl || env.ADLOOM_BASE_URL || saved.baseUrl || DEFAULT_BASE_URL,
  };
}
