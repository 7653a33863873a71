/**
 * A new version larger than add_creative_version's inline cap (512 KB) goes as an upload sent with
 * versionOf (multipart field or tus metadata): the upload's job makes it the creative's next version,
 * and the library keeps one creative (issue 27, item 3). Through HTTP against the shared server.
 */
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import { allCreatives, creativeWhen, finishedUpload, postUploads, uploadEvents, waitFor, webhookReceiver } from "../helpers/library";
import { mp4Video } from "../helpers/media-fixtures";
import { callTool, readyCreative, toolResult } from "../tools/helpers";
import { tusCreate, tusPatch } from "../uploads/tus";

/** A PNG of random pixels: it does not compress, so 600 x 600 is over 1 MB. */
async function noisePng(width = 600, height = 600): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const versionsOf = (key: string, creativeId: string) => toolResult(key, "list_creative_versions", { creativeId });

/** A creative that has finished importing (versions are added to ready creatives only). */
async function readyImage(key: string): Promise<string> {
  const { creativeId } = await readyCreative(key);
  await creativeWhen(key, creativeId, (c) => c.status === "ready");
  return creativeId;
}

describe("a large new version", () => {
  it("becomes a version of the one creative, by multipart and by tus, and never a second creative in the library", async () => {
    const t = await createTenant();
    const creativeId = await readyImage(t.key);
    const big = await noisePng();
    expect(big.byteLength).toBeGreaterThan(512 * 1024);
    const hook = await webhookReceiver(t.key);

    const sent = await postUploads(t.key, [{ name: "hero-v2.png", type: "image/png", bytes: big }], { versionOf: creativeId });
    expect(sent.status).toBe(201);
    const uploadId = sent.body.uploads[0].id;
    // While it runs, the upload names what it was sent as a version of; the creative it went to only once done.
    const running = (await api(t.key)(`/api/v1/uploads/${uploadId}`)).body.upload;
    expect(running.versionOf).toBe(creativeId);
    if (running.status === "processing") expect(running.creativeId).toBeNull();
    const upload = await finishedUpload(t.key, uploadId, 60_000);
    expect(upload).toMatchObject({ status: "completed", creativeId, versionOf: creativeId });
    // The upload.completed webhook carries the same Upload, naming the creative.
    const [completed] = await waitFor("upload.completed event", async () => {
      const seen = uploadEvents(hook.events, uploadId);
      return seen.length ? seen : null;
    });
    await hook.close();
    expect(completed).toMatchObject({ type: "upload.completed", data: { upload: { id: uploadId, creativeId, versionOf: creativeId } } });

    let listed = await versionsOf(t.key, creativeId);
    expect(listed.currentVersion).toBe(2);
    expect(listed.versions.map((v: { number: number; fileName: string; sizeBytes: number }) => [v.number, v.fileName, v.sizeBytes])).toEqual([
      [1, expect.any(String), expect.any(Number)],
      [2, "hero-v2.png", big.byteLength],
    ]);
    const media = await fetch(`${inject("baseUrl")}/api/media/${creativeId}/versions/2`, { headers: { Authorization: `Bearer ${t.key}` } });
    expect(Buffer.from(await media.arrayBuffer()).equals(big)).toBe(true);

    // The resumable path (files over 20 MB in the dashboard) takes versionOf as metadata.
    const third = await noisePng(640, 600);
    const created = await tusCreate(t.key, third.byteLength, { filename: "hero-v3.png", filetype: "image/png", versionOf: creativeId });
    expect(created.status).toBe(201);
    const finished = await tusPatch(t.key, created.url, 0, third);
    expect(finished.status).toBe(200);
    const resumable = await finishedUpload(t.key, finished.body.uploads[0].id, 60_000);
    expect(resumable).toMatchObject({ status: "completed", creativeId, versionOf: creativeId });
    listed = await versionsOf(t.key, creativeId);
    expect(listed.currentVersion).toBe(3);

    const library = await allCreatives(t.key);
    expect(library).toHaveLength(1);
    expect(library[0]).toMatchObject({ id: creativeId, fileName: expect.not.stringMatching(/hero-v/) });
  }, 180_000);

  it("the first version's file outlives its upload's dismissal; an upload whose creative was deleted is refused with 404", async () => {
    const t = await createTenant();
    const media = (path: string) => fetch(`${inject("baseUrl")}${path}`, { headers: { Authorization: `Bearer ${t.key}` } });
    const { uploadId, creativeId } = await readyCreative(t.key);
    await creativeWhen(t.key, creativeId, (c) => c.status === "ready");
    const first = Buffer.from(await (await media(`/api/media/${creativeId}/versions/1`)).arrayBuffer());
    await toolResult(t.key, "add_creative_version", { creativeId, file: { fileName: "v2.png", contentBase64: (await noisePng(20, 20)).toString("base64") } });
    // The creative now shows version 2; version 1 is the upload's file, which the dismissal must leave.
    expect((await api(t.key)(`/api/v1/uploads/${uploadId}`, { method: "DELETE" })).status).toBe(200);
    const kept = await media(`/api/media/${creativeId}/versions/1`);
    expect(kept.status).toBe(200);
    expect(Buffer.from(await kept.arrayBuffer()).equals(first)).toBe(true);

    // Deleting a creative takes its file; the completed upload it came from stays listed.
    const other = await readyCreative(t.key);
    expect((await api(t.key)("/api/v1/creatives", { method: "DELETE", json: { ids: [other.creativeId] } })).status).toBe(200);
    const refused = await callTool(t.key, "add_creative_version", { creativeId, uploadId: other.uploadId });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({ code: "not_found", message: expect.stringMatching(/deleted with the creative/) });
    expect((await versionsOf(t.key, creativeId)).versions).toHaveLength(2);
  });

  it("refuses a creative of another workspace, a second file, and a file of the other kind; nothing is stored", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const creativeId = await readyImage(t.key);
    const foreign = await readyImage(other.key);
    const png = await noisePng(100, 100);
    const refusals: [Record<string, string>, { name: string; type: string; bytes: Buffer }[], RegExp][] = [
      [{ versionOf: foreign }, [{ name: "a.png", type: "image/png", bytes: png }], /Unknown versionOf/],
      [{ versionOf: "crv_nope" }, [{ name: "a.png", type: "image/png", bytes: png }], /Unknown versionOf/],
      [
        { versionOf: creativeId },
        [
          { name: "a.png", type: "image/png", bytes: png },
          { name: "b.png", type: "image/png", bytes: png },
        ],
        /one file/,
      ],
      [{ versionOf: creativeId }, [{ name: "a.mp4", type: "video/mp4", bytes: mp4Video(64, 36, 1) }], /this creative's versions are images/],
    ];
    for (const [fields, files, message] of refusals) {
      const res = await postUploads(t.key, files, fields);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_request", message: expect.stringMatching(message) });
    }
    const tus = await tusCreate(t.key, png.byteLength, { filename: "a.png", filetype: "image/png", versionOf: foreign });
    expect(tus.status).toBe(400);

    expect((await api(t.key)("/api/v1/uploads?limit=100")).body.uploads).toHaveLength(1);
    expect((await versionsOf(t.key, creativeId)).versions).toHaveLength(1);
    expect(await allCreatives(t.key)).toHaveLength(1);
  }, 180_000);
});
