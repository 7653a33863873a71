/**
 * A creative's file that cannot be read for a moment (ffprobe killed, as the kernel's OOM killer or a
 * timeout does) is read again by the job's step retries, not failed for good: only a verdict on the bytes
 * (no format ffprobe can read) fails the creative at once. The fault is real: FFPROBE_PATH names a
 * script that dies by SIGKILL while its fault counter lasts, and runs the installed ffprobe after.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import { creativeWhen, finishedUpload, uploadIds } from "../helpers/library";
import { mp4Video } from "../helpers/media-fixtures";
import { startServer, tempDataDir, type TestServer } from "../helpers/server";

let server: TestServer;
let tenant: Tenant;
const tools = tempDataDir("ffprobe-faults");
const faults = path.join(tools, "faults");
const calls = path.join(tools, "calls");

/** The next `n` probes are killed; returns a reader of how many probes ran from now on. */
function killNextProbes(n: number): () => number {
  fs.writeFileSync(faults, String(n));
  fs.writeFileSync(calls, "");
  return () => fs.readFileSync(calls, "utf8").split("\n").filter(Boolean).length;
}

beforeAll(async () => {
  const ffprobe = execFileSync("sh", ["-c", "command -v ffprobe"], { encoding: "utf8" }).trim();
  const script = path.join(tools, "ffprobe");
  fs.writeFileSync(
    script,
    `#!/bin/sh
echo probe >> "${calls}"
n=$(cat "${faults}" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then
  echo $((n - 1)) > "${faults}"
  kill -9 $$
fi
exec "${ffprobe}" "$@"
`,
    { mode: 0o755 },
  );
  killNextProbes(0);
  // Step retries 200 ms apart (then 400, 800): the job's three retries fit in a test.
  server = await startServer({ env: { FFPROBE_PATH: script, JOBS_STEP_RETRY_BASE_MS: "200" } });
  tenant = await createTenant({ dataDir: server.dataDir });
}, 120_000);

afterAll(async () => {
  await server?.kill();
  fs.rmSync(tools, { recursive: true, force: true });
});

/** Uploads one video and waits until its creative has left `importing`. */
async function importedVideo(name: string, bytes: Buffer, options: { versionOf?: string } = {}) {
  const [uploadId] = await uploadIds(tenant.key, [{ name, type: "video/mp4", bytes }], { baseUrl: server.url, ...options });
  const upload = await finishedUpload(tenant.key, uploadId!, 60_000, server.url);
  if (options.versionOf) return { upload, creative: null };
  expect(upload, JSON.stringify(upload)).toMatchObject({ status: "completed" });
  const creative = await creativeWhen(tenant.key, upload.creativeId, (c) => c.status !== "importing", 60_000, server.url);
  return { upload, creative };
}

describe("reading an uploaded video", () => {
  it("a probe killed once is retried: the creative becomes ready with the video's dimensions", async () => {
    const probes = killNextProbes(1);
    const { creative } = await importedVideo("killed-once.mp4", mp4Video(320, 240));
    expect(creative).toMatchObject({ status: "ready", width: 320, height: 240 });
    expect(probes()).toBe(2);
  }, 90_000);

  it("a new version whose probe is killed once is retried too: the upload completes and the version is added", async () => {
    const { creative: target } = await importedVideo("target.mp4", mp4Video(160, 120));
    expect(target!.status).toBe("ready");
    const probes = killNextProbes(1);
    const { upload } = await importedVideo("target-v2.mp4", mp4Video(320, 240), { versionOf: target!.id });
    expect(upload, JSON.stringify(upload)).toMatchObject({ status: "completed", creativeId: target!.id });
    expect(probes()).toBe(2);
    const versions = await api(tenant.key, server.url)("/api/v1/tools/list_creative_versions", { method: "POST", json: { creativeId: target!.id } });
    expect(versions.body.result.versions.map((v: { number: number }) => v.number)).toContain(2);
  }, 90_000);

  it("a file ffprobe finds no video in fails at once, without retries", async () => {
    const probes = killNextProbes(0);
    const broken = Buffer.concat([mp4Video(320, 240).subarray(0, 32), Buffer.alloc(4000, 9)]);
    const { creative } = await importedVideo("broken.mp4", broken);
    expect(creative).toMatchObject({ status: "failed", width: null, height: null, error: expect.stringMatching(/^Could not read the video: /) });
    expect(probes()).toBe(1);
  }, 90_000);

  it("a probe killed every time is tried four times (the job's three step retries), then the creative fails with the reason", async () => {
    const probes = killNextProbes(100);
    const { upload, creative } = await importedVideo("killed-always.mp4", mp4Video(320, 240));
    expect(creative).toMatchObject({ status: "failed", width: null, height: null });
    expect(probes()).toBe(4);
    // The push had succeeded: the upload stays completed.
    expect((await api(tenant.key, server.url)(`/api/v1/uploads/${upload.id}`)).body.upload).toMatchObject({ status: "completed", error: null });

    // The reason is the creative's own: the API answers it, and the library page shows it.
    expect(creative.error).toMatch(/^Import failed after retries: Could not read the video \(a temporary error\): ffprobe failed: killed by SIGKILL$/);
  }, 120_000);
});
