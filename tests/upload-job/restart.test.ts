import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import { finishedUpload, uploadEvents, uploadIds, waitFor, webhookReceiver } from "../helpers/library";
import { jpegImage, mp4Video, pngImage } from "../helpers/media-fixtures";
import { currentOwner } from "@adloom/pglite-driver";
import { migratedDataDir, startServer, tempDataDir, type TestServer } from "../helpers/server";
import { freshDatabaseUrl } from "../helpers/fresh-database";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
});

describe("upload jobs across a server crash", () => {
  it("every upload processing at the kill reaches completed or failed after restart, each with exactly one terminal event", async () => {
    const databaseUrl = await freshDatabaseUrl("upload_restart");
    const dataDir = databaseUrl ? tempDataDir("upload-restart") : await migratedDataDir("upload-restart");
    // Short retry waits so the failing upload gives up within the test; the push itself stays ~3 s.
    const env = { PLATFORM_RETRY_DELAYS_MS: "1000,1000", SANDBOX_SLOW_PUSH_MS: "3000" };
    const first = await startServer({ dataDir, databaseUrl, env });
    servers.push(first);
    const tenant = await createTenant({ dataDir });
    const receiver = await webhookReceiver(tenant.key, first.url);

    const ids = [
      ...(await uploadIds(
        tenant.key,
        [
          { name: "sandbox-slow-1.png", type: "image/png", bytes: await pngImage(120, 80) },
          { name: "sandbox-slow-2.jpg", type: "image/jpeg", bytes: await jpegImage(90, 90) },
          { name: "sandbox-slow-3.mp4", type: "video/mp4", bytes: mp4Video(640, 360) },
        ],
        { baseUrl: first.url },
      )),
      ...(await uploadIds(
        tenant.key,
        [
          { name: "sandbox-slow-4.png", type: "image/png", bytes: await pngImage(60, 60) },
          { name: "sandbox-fail-5.png", type: "image/png", bytes: await pngImage(20, 20) },
        ],
        { baseUrl: first.url, platform: "platform_b" },
      )),
    ];
    // Let the jobs get into their (slow) pushes, then crash.
    await new Promise((r) => setTimeout(r, 1500));
    const before = await Promise.all(ids.map((id) => api(tenant.key, first.url)(`/api/v1/uploads/${id}`)));
    expect(before.filter((r) => r.body.upload.status === "processing").length).toBeGreaterThanOrEqual(3);
    await first.kill();
    // SIGKILL takes the whole process group, but the next-server child may be reaped a moment after
    // its parent: wait until the embedded database's lock holder is really gone.
    await waitFor("the killed server's database lock to be released", async () => currentOwner(path.join(dataDir, "db")) === null || undefined, 15_000);

    const second = await startServer({ dataDir, databaseUrl, env });
    servers.push(second);
    const finished = await Promise.all(ids.map((id) => finishedUpload(tenant.key, id, 90_000, second.url)));
    expect(finished.map((u) => u.status)).toEqual(["completed", "completed", "completed", "completed", "failed"]);
    expect(finished[0].platform_a.imageHash).toMatch(/^[0-9a-f]{32}$/);
    expect(finished[2].platform_a.videoId).toMatch(/^\d+$/);
    expect(finished[3].platform_b.imageId).toMatch(/^\d+$/);
    expect(finished[4].error).toMatch(/sandbox-fail/);

    await waitFor("one event per upload", async () => ids.every((id) => uploadEvents(receiver.events, id).length >= 1) || undefined, 60_000);
    await new Promise((r) => setTimeout(r, 1500)); // time for a duplicate to show up, were there one
    for (const [i, id] of ids.entries()) {
      const events = uploadEvents(receiver.events, id);
      expect(
        events.map((e) => e.type),
        id,
      ).toEqual([finished[i].status === "completed" ? "upload.completed" : "upload.failed"]);
      expect(events[0]!.data.upload.status).toBe(finished[i].status);
    }
    const creatives = (await api(tenant.key, second.url)("/api/v1/creatives")).body.creatives;
    expect(creatives.map((c: any) => c.fileName).sort()).toEqual(["sandbox-slow-1.png", "sandbox-slow-2.jpg", "sandbox-slow-3.mp4", "sandbox-slow-4.png"]);
    await receiver.close();
    await second.stop();
  }, 240_000);
});
