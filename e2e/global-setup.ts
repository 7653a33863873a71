import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { buildIfStale } from "../scripts/build-if-stale.mjs";
import { pngImage } from "../tests/helpers/media-fixtures";
import { freePort } from "../tests/helpers/ports";
import { startServer } from "../tests/helpers/server";
import { startDriveFake, startDropboxFake } from "../tests/helpers/storage-fakes";
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
  // Google Drive and Dropbox are local wire fakes (tests/helpers/storage-fakes.ts) whose consent pages
  // send the browser straight back; the import journey connects both.
  const drive = await startDriveFake({ clientId: "e2e-drive", clientSecret: "e2e-drive-secret" });
  drive.addFile("banner.png", await pngImage(300, 250), drive.addFolder("Campaign"), "image/png");
  const dropbox = await startDropboxFake({ appKey: "e2e-dropbox", appSecret: "e2e-dropbox-secret" });
  dropbox.addFolder("/Campaign");
  dropbox.addFile("/Campaign/story.png", await pngImage(180, 320));
  // The providers send the browser back to PUBLIC_BASE_URL: the host the browser signed in on.
  const port = await freePort();
  const server = await startServer({
    port,
    longLived: true,
    env: {
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      PLATFORM_RETRY_DELAYS_MS: "200,400,800,1600",
      // The journeys pull leads with "Check for new leads"; the every-minute poll of every workspace the journeys
      // make would only spend the cores they share (tests/leads/pull.test.ts covers the scheduled poll).
      LEADS_POLL: "0",
      // The import journey syncs its watched folder itself; a scheduled sync at the same moment would take its files.
      IMPORT_SYNC: "0",
      // The moderation journey pulls its comments itself (admin moderation pull).
      COMMENTS_POLL: "0",
      AI_PROVIDER: "openai-compatible",
      AI_MODEL: "fake-assistant",
      AI_BASE_URL: ai.baseUrl,
      GOOGLE_DRIVE_CLIENT_ID: "e2e-drive",
      GOOGLE_DRIVE_CLIENT_SECRET: "e2e-drive-secret",
      GOOGLE_OAUTH_AUTHORIZE_URL: drive.authorizeUrl,
      GOOGLE_OAUTH_TOKEN_URL: drive.tokenUrl,
      GOOGLE_OAUTH_REVOKE_URL: drive.revokeUrl,
      GOOGLE_DRIVE_API_URL: drive.apiUrl,
      DROPBOX_APP_KEY: "e2e-dropbox",
      DROPBOX_APP_SECRET: "e2e-dropbox-secret",
      DROPBOX_AUTHORIZE_URL: dropbox.authorizeUrl,
      DROPBOX_API_URL: dropbox.apiUrl,
      DROPBOX_CONTENT_URL: dropbox.contentUrl,
    },
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
    await ai.close();
    await drive.close();
    await dropbox.close();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    if (process.env.E2E_SHOW_SERVER_OUTPUT) console.log(server.output());
  };
}
