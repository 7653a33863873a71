import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { buildIfStale } from "../scripts/build-if-stale.mjs";
import { startServer } from "../tests/helpers/server";
import { startFakeAssistant } from "./support/fake-assistant";

/** Chromium comes from Debian; install it once when missing (as `npm test` promises). */
function ensureChromium(): void {
  const executable = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (fs.existsSync(executable)) return;
  try {
    execFileSync("apt-get", ["install", "-y", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  } catch (error) {
    throw new Error(`Chromium is not at ${executable} and "apt-get install -y chromium" failed: ${(error as Error).message}`);
  }
}

/**
 * Builds the app if stale, then starts the real server (the same way the integration tests do) on the
 * embedded defaults, except shorter waits between platform push attempts (the same five attempts):
 * the failed-upload journeys would otherwise idle 27 s each.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureChromium();
  buildIfStale({ quiet: true });
  // The assistant talks to a local fake of the OpenAI wire format (e2e/support/fake-assistant.ts).
  const ai = await startFakeAssistant();
  const server = await startServer({
    env: { PLATFORM_RETRY_DELAYS_MS: "200,400,800,1600", AI_PROVIDER: "openai-compatible", AI_MODEL: "fake-assistant", AI_BASE_URL: ai.baseUrl },
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
    await ai.close();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    if (process.env.E2E_SHOW_SERVER_OUTPUT) console.log(server.output());
  };
}
