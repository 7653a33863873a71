import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import { creativeWhen, finishedUpload, uploadEvents, uploadIds, waitFor, webhookReceiver } from "../helpers/library";
import { jpegImage, mp4Video, pngImage, probeVideoBytes } from "../helpers/media-fixtures";
import { inject } from "vitest";

let tenant: Tenant;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  tenant = await createTenant();
  receiver = await webhookReceiver(tenant.key);
});
afterAll(() => receiver?.close());

const eventsOf = (uploadId: string) =>
  waitFor(`event for ${uploadId}`, async () => (uploadEvents(receiver.events, uploadId).length ? uploadEvents(receiver.events, uploadId) : undefined));

describe.concurrent("upload job: successful pushes", () => {
  it("pushes a platform_a image: 32-hex image hash, a ready creative with real dimensions, one upload.completed", async () => {
    const [id] = await uploadIds(tenant.key, [{ name: "hero.png", type: "image/png", bytes: await pngImage(640, 360) }]);
    const upload = await finishedUpload(tenant.key, id!);
    expect(upload).toMatchObject({ id, status: "completed", error: null, platform: "platform_a", kind: "image", platform_b: { imageId: null, videoId: null } });
    expect(upload.platform_a.imageHash).toMatch(/^[0-9a-f]{32}$/);
    expect(upload.platform_a.videoId).toBeNull();

    const events = await eventsOf(id!);
    await new Promise((r) => setTimeout(r, 500)); // a duplicate would have arrived by now
    expect(uploadEvents(receiver.events, id!).map((e) => e.type)).toEqual(["upload.completed"]);
    expect(events[0]!.data.upload).toEqual(upload);

    const list = await api(tenant.key)("/api/v1/creatives");
    const creative = list.body.creatives.find((c: any) => c.fileName === "hero.png");
    expect(creative).toBeDefined();
    expect(upload).toMatchObject({ creativeId: creative.id, versionOf: null });
    const ready = await creativeWhen(tenant.key, creative.id, (c) => c.status === "ready");
    expect(ready).toMatchObject({
      kind: "image",
      contentType: "image/png",
      width: 640,
      height: 360,
      mediaPath: `/api/media/${creative.id}`,
      previewPath: null,
      copyCount: 0,
    });
    const media = await fetch(`${inject("baseUrl")}${ready.mediaPath}`, { headers: { Authorization: `Bearer ${tenant.key}` } });
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer()).equals(await pngImage(640, 360))).toBe(true);
  });

  it("pushes a platform_b image: numeric image id", async () => {
    const [id] = await uploadIds(tenant.key, [{ name: "b-photo.jpg", type: "image/jpeg", bytes: await jpegImage(300, 500) }], { platform: "platform_b" });
    const upload = await finishedUpload(tenant.key, id!);
    expect(upload).toMatchObject({
      status: "completed",
      platform: "platform_b",
      platform_a: { imageHash: null, videoId: null },
      platform_b: { videoId: null },
    });
    expect(upload.platform_b.imageId).toMatch(/^[1-9]\d+$/);
    const creative = await waitFor("creative", async () =>
      (await api(tenant.key)("/api/v1/creatives")).body.creatives.find((c: any) => c.fileName === "b-photo.jpg"),
    );
    const ready = await creativeWhen(tenant.key, creative.id, (c) => c.status === "ready");
    expect(ready).toMatchObject({ contentType: "image/jpeg", width: 300, height: 500 });
  });

  for (const platform of ["platform_a", "platform_b"] as const) {
    it(`pushes a ${platform} video: numeric video id, probed dimensions and a 720p H.264 preview`, async () => {
      const name = `clip-${platform}.mp4`;
      const [id] = await uploadIds(tenant.key, [{ name, type: "video/mp4", bytes: mp4Video(1920, 1080) }], { platform });
      const upload = await finishedUpload(tenant.key, id!);
      expect(upload).toMatchObject({ status: "completed", kind: "video", platform });
      expect(upload[platform].videoId).toMatch(/^[1-9]\d+$/);
      expect(platform === "platform_a" ? upload.platform_a.imageHash : upload.platform_b.imageId).toBeNull();

      const creative = await waitFor("creative", async () => (await api(tenant.key)("/api/v1/creatives")).body.creatives.find((c: any) => c.fileName === name));
      const ready = await creativeWhen(tenant.key, creative.id, (c) => c.status === "ready" && c.previewPath !== null, 90_000);
      expect(ready).toMatchObject({ kind: "video", contentType: "video/mp4", width: 1920, height: 1080, previewPath: `/api/media/${creative.id}/preview` });
      const preview = await fetch(`${inject("baseUrl")}${ready.previewPath}`, { headers: { Authorization: `Bearer ${tenant.key}` } });
      expect(preview.status).toBe(200);
      const probed = probeVideoBytes(Buffer.from(await preview.arrayBuffer()));
      expect(probed).toEqual({ width: 1280, height: 720, codec: "h264", audioCodec: "aac" });
    }, 120_000);
  }

  it("keeps a small video's own size in its preview (never upscales)", async () => {
    const [id] = await uploadIds(tenant.key, [{ name: "small.mp4", type: "video/mp4", bytes: mp4Video(320, 240) }]);
    await finishedUpload(tenant.key, id!);
    const creative = await waitFor("creative", async () =>
      (await api(tenant.key)("/api/v1/creatives")).body.creatives.find((c: any) => c.fileName === "small.mp4"),
    );
    const ready = await creativeWhen(tenant.key, creative.id, (c) => c.previewPath !== null, 90_000);
    expect([ready.width, ready.height]).toEqual([320, 240]);
    const preview = await fetch(`${inject("baseUrl")}${ready.previewPath}`, { headers: { Authorization: `Bearer ${tenant.key}` } });
    expect(probeVideoBytes(Buffer.from(await preview.arrayBuffer()))).toMatchObject({ width: 320, height: 240, codec: "h264" });
  }, 120_000);
});

describe.concurrent("upload job: unreadable media", () => {
  it("completes the push but marks the creative failed when its file cannot be decoded", async () => {
    const brokenPng = Buffer.concat([(await pngImage(10, 10)).subarray(0, 16), Buffer.alloc(2000, 7)]);
    const brokenMp4 = Buffer.concat([mp4Video(320, 240).subarray(0, 32), Buffer.alloc(4000, 9)]);
    const ids = await uploadIds(tenant.key, [
      { name: "broken.png", type: "image/png", bytes: brokenPng },
      { name: "broken.mp4", type: "video/mp4", bytes: brokenMp4 },
    ]);
    for (const id of ids) expect((await finishedUpload(tenant.key, id)).status).toBe("completed");
    for (const name of ["broken.png", "broken.mp4"]) {
      const creative = await waitFor(name, async () => (await api(tenant.key)("/api/v1/creatives")).body.creatives.find((c: any) => c.fileName === name));
      const failed = await creativeWhen(tenant.key, creative.id, (c) => c.status !== "importing");
      expect(failed).toMatchObject({ status: "failed", width: null, height: null, mediaPath: null, previewPath: null });
    }
  }, 90_000);
});

describe.concurrent("upload job: sandbox fault names", () => {
  it("sandbox-fail: every attempt fails, the upload ends failed with an error and one upload.failed", async () => {
    const started = Date.now();
    const [id] = await uploadIds(tenant.key, [{ name: "sandbox-fail-banner.png", type: "image/png", bytes: await pngImage(50, 50) }]);
    const upload = await finishedUpload(tenant.key, id!, 60_000);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(upload.status).toBe("failed");
    expect(upload.error).toMatch(/sandbox-fail.*gave up after \d+ attempts/);
    expect(upload.platform_a).toEqual({ imageHash: null, videoId: null });
    await eventsOf(id!);
    await new Promise((r) => setTimeout(r, 500));
    const events = uploadEvents(receiver.events, id!);
    expect(events.map((e) => e.type)).toEqual(["upload.failed"]);
    expect(events[0]!.data.upload).toEqual(upload);
    const creatives = (await api(tenant.key)("/api/v1/creatives")).body.creatives;
    expect(creatives.some((c: any) => c.fileName === "sandbox-fail-banner.png")).toBe(false);
  }, 90_000);

  it("sandbox-fail-once: the first job run fails; the retried upload completes, each run with its own event", async () => {
    const [id] = await uploadIds(tenant.key, [{ name: "sandbox-fail-once.jpg", type: "image/jpeg", bytes: await jpegImage(64, 64) }], {
      platform: "platform_b",
    });
    const failed = await finishedUpload(tenant.key, id!, 60_000);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/sandbox-fail-once/);

    const retry = await api(tenant.key)(`/api/v1/uploads/${id}`, { method: "POST" });
    expect(retry).toMatchObject({ status: 200, body: { upload: { id, status: "processing" } } });
    const completed = await finishedUpload(tenant.key, id!, 60_000);
    expect(completed).toMatchObject({ status: "completed", error: null });
    expect(completed.platform_b.imageId).toMatch(/^\d+$/);

    await waitFor("two events", async () => uploadEvents(receiver.events, id!).length >= 2 || undefined);
    await new Promise((r) => setTimeout(r, 500));
    expect(
      uploadEvents(receiver.events, id!)
        .map((e) => e.type)
        .sort(),
    ).toEqual(["upload.completed", "upload.failed"]);
  }, 150_000);

  it("sandbox-flaky: the first attempt is refused as retryable, the next accepted", async () => {
    const [id] = await uploadIds(tenant.key, [{ name: "sandbox-flaky.png", type: "image/png", bytes: await pngImage(80, 40) }]);
    const upload = await finishedUpload(tenant.key, id!, 30_000);
    expect(upload.status).toBe("completed");
    expect(upload.platform_a.imageHash).toMatch(/^[0-9a-f]{32}$/);
    await eventsOf(id!);
    await new Promise((r) => setTimeout(r, 500));
    expect(uploadEvents(receiver.events, id!).map((e) => e.type)).toEqual(["upload.completed"]);
  });

  it("sandbox-slow: the push takes about 3 seconds, then completes", async () => {
    const started = Date.now();
    const [id] = await uploadIds(tenant.key, [{ name: "sandbox-slow.png", type: "image/png", bytes: await pngImage(40, 40) }]);
    const midway = await api(tenant.key)(`/api/v1/uploads/${id}`);
    expect(midway.body.upload.status).toBe("processing");
    const upload = await finishedUpload(tenant.key, id!, 30_000);
    expect(upload.status).toBe("completed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
  });
});
