import fs from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { api, createMemberKey, createTenant } from "../helpers/fixtures";
import { finishedUpload } from "../helpers/library";
import { makeImage, storedFiles } from "./helpers";
import { cutPatch, largeVideo, partStaged, settledOffset, sha256, tusCreate, tusHead, tusPatch, TUS_PATH } from "./tus";

const MB = 1024 * 1024;

describe("resumable uploads (tus)", () => {
  it("a PATCH cut off at 50% resumes with HEAD + PATCH at the reported offset and completes with identical bytes", async () => {
    const tenant = await createTenant();
    const video = largeVideo();
    const created = await tusCreate(tenant.key, video.length, { filename: "launch_hookA_9x16.mp4", filetype: "video/mp4" });
    expect(created.status).toBe(201);
    expect(created.headers.get("tus-resumable")).toBe("1.0.0");
    expect(created.url).toMatch(new RegExp(`${TUS_PATH}/upl_[0-9a-z]{20}$`));
    const uploadId = created.url.split("/").pop()!;

    const half = Math.floor(video.length / 2);
    await cutPatch(tenant.key, created.url, 0, video, half, () => partStaged(inject("dataDir"), uploadId));
    const offset = await settledOffset(tenant.key, created.url);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);
    // Nothing is recorded while the upload is unfinished.
    expect((await api(tenant.key)(`/api/v1/uploads/${uploadId}`)).status).toBe(404);

    const head = await tusHead(tenant.key, created.url);
    expect(head).toMatchObject({ status: 200, offset, length: video.length });
    const rest = await tusPatch(tenant.key, created.url, offset, video.subarray(offset));
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ uploads: [{ id: uploadId, status: "processing" }] });

    const upload = await finishedUpload(tenant.key, uploadId, 60_000);
    expect(upload).toMatchObject({ id: uploadId, status: "completed", fileName: "launch_hookA_9x16.mp4", kind: "video", sizeBytes: video.length });
    const stored = storedFiles(tenant.workspaceId).filter((f) => f.endsWith(`/uploads/${uploadId}`));
    expect(stored).toHaveLength(1);
    expect(sha256(fs.readFileSync(stored[0]!))).toBe(sha256(video));
    const creatives = (await api(tenant.key)("/api/v1/creatives")).body.creatives;
    expect(creatives.map((c: any) => c.fileName)).toEqual(["launch_hookA_9x16.mp4"]);

    // A resume after the answer was lost: HEAD reports the whole file, so the client is done.
    expect(await tusHead(tenant.key, created.url)).toMatchObject({ status: 200, offset: video.length, length: video.length });
    const again = await tusPatch(tenant.key, created.url, video.length, Buffer.alloc(1));
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "conflict", message: expect.stringContaining(`it is upload ${uploadId}`) });
  }, 120_000);

  it("answers bad offsets, unknown ids and another workspace's upload with clear errors in the envelope", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const png = await makeImage("png", { width: 64, height: 48 });
    const created = await tusCreate(tenant.key, png.length, { filename: "a.png", filetype: "image/png" });
    expect(created.status).toBe(201);

    const wrongOffset = await tusPatch(tenant.key, created.url, 5, png.subarray(5));
    expect(wrongOffset.status).toBe(409);
    expect(wrongOffset.body.error.code).toBe("conflict");
    expect(wrongOffset.body.error.message).toMatch(/Upload-Offset does not match.*HEAD/);
    expect((await tusHead(tenant.key, created.url)).offset).toBe(0);

    const unknown = await tusHead(tenant.key, created.url.replace(/upl_\w+$/, "upl_doesnotexist000000000"));
    expect(unknown.status).toBe(404);
    const unknownPatch = await tusPatch(tenant.key, created.url.replace(/upl_\w+$/, "upl_doesnotexist000000000"), 0, png);
    expect(unknownPatch.status).toBe(404);
    expect(unknownPatch.body.error).toMatchObject({ code: "not_found", message: expect.stringMatching(/Resumable upload not found/) });

    // Another workspace sees the upload as unknown and cannot write to or remove it.
    const foreignHead = await tusHead(other.key, created.url);
    expect(foreignHead.status).toBe(404);
    const foreignPatch = await tusPatch(other.key, created.url, 0, png);
    expect(foreignPatch.status).toBe(404);
    expect(foreignPatch.body.error.code).toBe("not_found");
    const foreignDelete = await fetch(created.url, { method: "DELETE", headers: { Authorization: `Bearer ${other.key}`, "Tus-Resumable": "1.0.0" } });
    expect(foreignDelete.status).toBe(404);
    expect((await tusHead(tenant.key, created.url)).status).toBe(200);

    const noAuth = await fetch(created.url, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } });
    expect(noAuth.status).toBe(401);
    const noVersion = await fetch(created.url, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${tenant.key}`, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
      body: new Uint8Array(png),
    });
    expect(noVersion.status).toBe(412);
    expect((await noVersion.json()).error.message).toMatch(/Tus-Resumable/);

    // The owner completes it; the other workspace still sees nothing.
    const done = await tusPatch(tenant.key, created.url, 0, png);
    expect(done.status).toBe(200);
    expect((await api(other.key)("/api/v1/uploads")).body.uploads).toEqual([]);
  });

  it("checks size, type, platform and folder when the upload is created, as multipart uploads do", async () => {
    const tenant = await createTenant();
    const tooBigImage = await tusCreate(tenant.key, 31 * MB, { filename: "big.png", filetype: "image/png" });
    expect(tooBigImage.status).toBe(400);
    expect(tooBigImage.body.error).toEqual({ code: "invalid_request", message: 'File "big.png" exceeds the 30 MB limit for images' });
    const tooBigVideo = await tusCreate(tenant.key, 201 * MB, { filename: "big.mp4", filetype: "video/mp4" });
    expect(tooBigVideo.status).toBe(413);
    expect(tooBigVideo.body.error.code).toBe("limit_exceeded");
    const pdf = await tusCreate(tenant.key, 100, { filename: "doc.pdf", filetype: "application/pdf" });
    expect(pdf.status).toBe(400);
    expect(pdf.body.error.message).toMatch(/unsupported type "application\/pdf"/);
    const noName = await tusCreate(tenant.key, 100, { filetype: "image/png" });
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toMatch(/filename/);
    const badPlatform = await tusCreate(tenant.key, 100, { filename: "a.png", filetype: "image/png", platform: "platform_z" });
    expect(badPlatform.body.error.message).toMatch(/Invalid platform/);
    const badFolder = await tusCreate(tenant.key, 100, { filename: "a.png", filetype: "image/png", folderId: "fld_nope" });
    expect(badFolder.body.error.message).toMatch(/Unknown folderId/);
    const deferred = await tusCreate(
      tenant.key,
      0,
      { filename: "a.png", filetype: "image/png" },
      { headers: { "Upload-Length": "", "Upload-Defer-Length": "1" } },
    );
    expect(deferred.status).toBe(400);

    // A viewer may not upload at all.
    const viewer = await createMemberKey(tenant, { role: "viewer" });
    const refused = await tusCreate(viewer.key, 100, { filename: "a.png", filetype: "image/png" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect((await api(tenant.key)("/api/v1/uploads")).body.uploads).toEqual([]);
  });

  it("a file whose bytes are not what it declared is refused at the end and leaves nothing behind", async () => {
    const tenant = await createTenant();
    const notAVideo = Buffer.alloc(4096, 0x41);
    const created = await tusCreate(tenant.key, notAVideo.length, { filename: "fake.mp4", filetype: "video/mp4" });
    const res = await tusPatch(tenant.key, created.url, 0, notAVideo);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/fake\.mp4.*not a supported video/);
    expect((await tusHead(tenant.key, created.url)).status).toBe(404);
    expect((await api(tenant.key)("/api/v1/uploads")).body.uploads).toEqual([]);
    expect(storedFiles(tenant.workspaceId)).toEqual([]);
  });

  it("DELETE abandons an unfinished upload", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const created = await tusCreate(tenant.key, png.length, { filename: "a.png", filetype: "image/png" });
    await tusPatch(tenant.key, created.url, 0, png.subarray(0, 10));
    const del = await fetch(created.url, { method: "DELETE", headers: { Authorization: `Bearer ${tenant.key}`, "Tus-Resumable": "1.0.0" } });
    expect(del.status).toBe(204);
    expect((await tusHead(tenant.key, created.url)).status).toBe(404);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await api(null)("/docs/openapi.json")).body;
    expect(Object.keys(doc.paths[TUS_PATH])).toEqual(["post"]);
    expect(Object.keys(doc.paths[`${TUS_PATH}/{id}`]).sort()).toEqual(["delete", "head", "patch"]);
    expect(doc.paths[`${TUS_PATH}/{id}`].patch.requestBody.content).toHaveProperty("application/offset+octet-stream");
  });
});
