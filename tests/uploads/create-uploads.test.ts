import fs from "node:fs";
import http from "node:http";
import { describe, expect, inject, it } from "vitest";
import { admin, api, createMemberKey, createTenant } from "../helpers/fixtures";
import { filePart, makeImage, makeVideo, paddedStream, postUploads, storedFiles, storedOriginals, type Part } from "./helpers";

const MB = 1024 * 1024;

/** Asserts a rejected request left nothing: no upload rows (via the list) and no stored files. */
async function expectNothingLeft(tenant: { key: string; workspaceId: string }) {
  const list = await api(tenant.key)("/api/v1/uploads");
  expect(list.status).toBe(200);
  expect(list.body.uploads).toEqual([]);
  expect(storedFiles(tenant.workspaceId)).toEqual([]);
}

async function expectRejected(parts: Part[], messagePattern: RegExp) {
  const tenant = await createTenant();
  const res = await postUploads(tenant.key, parts);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe("invalid_request");
  expect(res.body.error.message).toMatch(messagePattern);
  await expectNothingLeft(tenant);
  return tenant;
}

describe("POST /api/v1/uploads", () => {
  it("accepts images and videos, one processing upload per file, stored with the verified type", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const jpeg = await makeImage("jpeg");
    const webp = await makeImage("webp");
    const mp4 = makeVideo("mp4");
    const webm = makeVideo("webm");
    const res = await postUploads(tenant.key, [
      filePart("a.png", "image/png", png),
      filePart("b.jpg", "image/jpeg", jpeg),
      filePart("c.webp", "image/webp", webp),
      filePart("d.mp4", "video/mp4", mp4),
      filePart("e.webm", "video/webm", webm),
    ]);
    expect(res.status).toBe(201);
    expect(res.body.uploads).toHaveLength(5);
    for (const u of res.body.uploads) expect(u).toEqual({ id: expect.stringMatching(/^upl_/), status: "processing" });

    const call = api(tenant.key);
    const first = await call(`/api/v1/uploads/${res.body.uploads[0].id}`);
    expect(first.status).toBe(200);
    expect(first.body.upload).toMatchObject({ id: res.body.uploads[0].id, fileName: "a.png", kind: "image", sizeBytes: png.length, platform: "platform_a" });
    expect(Object.keys(first.body.upload).sort()).toEqual(
      ["createdAt", "creativeId", "error", "fileName", "id", "kind", "platform", "platform_a", "platform_b", "sizeBytes", "status", "versionOf"].sort(),
    );
    const video = await call(`/api/v1/uploads/${res.body.uploads[3].id}`);
    expect(video.body.upload).toMatchObject({ fileName: "d.mp4", kind: "video", sizeBytes: mp4.length });

    const stored = storedOriginals(tenant.workspaceId)
      .map((f) => fs.statSync(f).size)
      .sort((a, b) => a - b);
    expect(stored).toEqual([png.length, jpeg.length, webp.length, mp4.length, webm.length].sort((a, b) => a - b));
  });

  it("takes platform and folderId whether they come before or after the files", async () => {
    const tenant = await createTenant();
    const { folderId } = await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Spring"]);
    const png = await makeImage("png");
    const before = await postUploads(tenant.key, [
      { field: "platform", value: "platform_b" },
      { field: "folderId", value: folderId },
      filePart("x.png", "image/png", png),
    ]);
    const after = await postUploads(tenant.key, [
      filePart("y.png", "image/png", png),
      { field: "platform", value: "platform_b" },
      { field: "folderId", value: folderId },
    ]);
    expect(before.status).toBe(201);
    expect(after.status).toBe(201);
    const call = api(tenant.key);
    for (const id of [before.body.uploads[0].id, after.body.uploads[0].id]) {
      expect((await call(`/api/v1/uploads/${id}`)).body.upload.platform).toBe("platform_b");
    }
    // The folder is observable through folder scoping: a member of that folder sees both.
    const member = await createMemberKey(tenant, { role: "editor", folders: [folderId] });
    const seen = await api(member.key)("/api/v1/uploads");
    expect(seen.body.uploads.map((u: { id: string }) => u.id).sort()).toEqual([before.body.uploads[0].id, after.body.uploads[0].id].sort());
  });

  it("rejects a request without files, and a files part that is not a file", async () => {
    await expectRejected([{ field: "platform", value: "platform_a" }], /No files/);
    await expectRejected([{ field: "files", value: "not a file" }], /has no filename/);
  });

  it("rejects a body that is not multipart", async () => {
    const tenant = await createTenant();
    const res = await api(tenant.key)("/api/v1/uploads", { method: "POST", json: { files: [] } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/multipart\/form-data/);
  });

  it("rejects 26 files and keeps none of the first 25", async () => {
    const png = await makeImage("png");
    const parts = Array.from({ length: 26 }, (_, i) => filePart(`f${i}.png`, "image/png", png));
    await expectRejected(parts, /at most 25/);
  });

  it("accepts exactly 25 files, answering and recording each in request order", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    // Sizes from 3 MB down to the bare image: a file's write can still be finishing while the next, smaller one
    // streams in and finishes first; the answer and the records must keep the request's order all the same.
    const sizeOf = (i: number) => (i % 5 === 0 ? 3 * MB - i * 1024 : png.length + (25 - i) * 512);
    const res = await postUploads(
      tenant.key,
      Array.from({ length: 25 }, (_, i) => filePart(`f${i}.png`, "image/png", paddedStream(png, sizeOf(i)))),
    );
    expect(res.status).toBe(201);
    expect(res.body.uploads).toHaveLength(25);
    const listed = await api(tenant.key)("/api/v1/uploads?limit=25");
    const byId = new Map(listed.body.uploads.map((u: { id: string }) => [u.id, u]));
    const ids = res.body.uploads.map((u: { id: string }) => u.id);
    expect(ids.map((id: string) => byId.get(id))).toEqual(
      Array.from({ length: 25 }, (_, i) => expect.objectContaining({ fileName: `f${i}.png`, sizeBytes: sizeOf(i) })),
    );
    const stored = storedOriginals(tenant.workspaceId).map((f) => fs.statSync(f).size);
    expect(stored.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => sizeOf(i)).sort((a, b) => a - b));
  });

  it("rejects an image over 30 MB while streaming, naming the file and the limit", async () => {
    const png = await makeImage("png");
    const small = await makeImage("jpeg");
    await expectRejected(
      [filePart("ok.jpg", "image/jpeg", small), filePart("huge.png", "image/png", paddedStream(png, 30 * MB + 1))],
      /"huge\.png" exceeds the 30 MB limit for images/,
    );
  });

  it("accepts an image of exactly 30 MB", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const res = await postUploads(tenant.key, [filePart("edge.png", "image/png", paddedStream(png, 30 * MB))]);
    expect(res.status).toBe(201);
    expect((await api(tenant.key)(`/api/v1/uploads/${res.body.uploads[0].id}`)).body.upload.sizeBytes).toBe(30 * MB);
  });

  it("rejects a video over 200 MB while streaming", async () => {
    const mp4 = makeVideo("mp4");
    await expectRejected([filePart("long.mp4", "video/mp4", paddedStream(mp4, 200 * MB + 1))], /"long\.mp4" exceeds the 200 MB limit for videos/);
  });

  it("rejects a part whose type is neither image/* nor video/*", async () => {
    await expectRejected([filePart("notes.pdf", "application/pdf", Buffer.from("%PDF-1.7\n..."))], /"notes\.pdf" has the unsupported type "application\/pdf"/);
  });

  it("rejects a declared type the bytes contradict", async () => {
    const jpeg = await makeImage("jpeg");
    await expectRejected([filePart("fake.png", "image/png", jpeg)], /"fake\.png" is declared as image\/png but its content is JPEG/);
  });

  it("rejects an image part that holds a video, and bytes of no known format", async () => {
    await expectRejected([filePart("clip.png", "image/png", makeVideo("mp4"))], /declared as image\/png but its content is MP4/);
    await expectRejected(
      [filePart("noise.mp4", "video/mp4", Buffer.from("just some text, not a video at all, padded out to be long enough"))],
      /not a supported video/,
    );
    await expectRejected([filePart("empty.png", "image/png", Buffer.alloc(0))], /"empty\.png" is empty/);
  });

  it("rejects an unknown platform, whether it comes first or last", async () => {
    const png = await makeImage("png");
    await expectRejected([{ field: "platform", value: "platform_z" }, filePart("a.png", "image/png", png)], /Invalid platform "platform_z"/);
    await expectRejected([filePart("a.png", "image/png", png), { field: "platform", value: "facebook" }], /Invalid platform "facebook"/);
    // Exact names only: padding or another case is not guessed into a platform.
    await expectRejected([{ field: "platform", value: " platform_a" }, filePart("a.png", "image/png", png)], /Invalid platform " platform_a"/);
    await expectRejected([{ field: "platform", value: "platform_b\n" }, filePart("a.png", "image/png", png)], /Invalid platform "platform_b\\n"/);
    await expectRejected([{ field: "platform", value: "PLATFORM_A" }, filePart("a.png", "image/png", png)], /Invalid platform "PLATFORM_A"/);
  });

  it("rejects an unknown folderId, and another workspace's folder, in either order", async () => {
    const png = await makeImage("png");
    await expectRejected([{ field: "folderId", value: "fld_doesnotexist" }, filePart("a.png", "image/png", png)], /Unknown folderId/);
    const other = await createTenant();
    const { folderId } = await admin(["folder", "create", "--workspace", other.workspaceId, "--name", "Theirs"]);
    await expectRejected([filePart("a.png", "image/png", png), { field: "folderId", value: folderId }], /Unknown folderId/);
  });

  it("rejects a folder the folder-scoped member cannot see, and requires a folder from such members", async () => {
    const tenant = await createTenant();
    const mine = (await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Mine"])).folderId;
    const hidden = (await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Hidden"])).folderId;
    const member = await createMemberKey(tenant, { role: "editor", folders: [mine] });
    const png = await makeImage("png");

    const invisible = await postUploads(member.key, [filePart("a.png", "image/png", png), { field: "folderId", value: hidden }]);
    expect(invisible.status).toBe(400);
    expect(invisible.body.error.message).toMatch(/Unknown folderId/);
    const rootless = await postUploads(member.key, [filePart("a.png", "image/png", png)]);
    expect(rootless.status).toBe(400);
    expect(rootless.body.error.message).toMatch(/folderId is required/);
    await expectNothingLeft(tenant);

    const ok = await postUploads(member.key, [{ field: "folderId", value: mine }, filePart("a.png", "image/png", png)]);
    expect(ok.status).toBe(201);
  });

  it("needs the upload and publish scopes, and a paid plan", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const uploadOnly = await createMemberKey(tenant, { role: "editor", scopes: ["upload"] });
    const res = await postUploads(uploadOnly.key, [filePart("a.png", "image/png", png)]);
    expect(res.status).toBe(403);
    const viewer = await createMemberKey(tenant, { role: "viewer" });
    expect((await postUploads(viewer.key, [filePart("a.png", "image/png", png)])).status).toBe(403);
    await expectNothingLeft(tenant);

    const unpaid = await createTenant({ plan: "none" });
    const lapsed = await postUploads(unpaid.key, [filePart("a.png", "image/png", png)]);
    expect(lapsed.status).toBe(402);
    expect(lapsed.body.error.code).toBe("subscription_required");
    expect(storedFiles(unpaid.workspaceId)).toEqual([]);
  });

  it("keeps the file name as sent, minus any directory part", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const res = await postUploads(tenant.key, [filePart("C:\\Users\\me\\Été – ad #1.png", "image/png", png)]);
    expect(res.status).toBe(201);
    const upload = (await api(tenant.key)(`/api/v1/uploads/${res.body.uploads[0].id}`)).body.upload;
    expect(upload.fileName).toBe("Été – ad #1.png");
  });
});

describe("POST /api/v1/uploads with an Idempotency-Key", () => {
  it("replays a repeat of the same form, whatever its boundary, and refuses any other form under the key", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    // The same length, name and type: only the bytes differ (the key's first request fixed all three).
    const otherBytes = Buffer.from(png);
    otherBytes[Math.floor(png.length / 2)] ^= 0xff;
    const headers = { "Idempotency-Key": "upload-once" };

    const first = await postUploads(tenant.key, [filePart("a.png", "image/png", png)], { headers });
    expect(first.status).toBe(201);
    const repeat = await postUploads(tenant.key, [filePart("a.png", "image/png", png)], { headers });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(repeat.body).toEqual(first.body);

    for (const parts of [
      [filePart("a.png", "image/png", otherBytes)],
      [filePart("b.png", "image/png", png)],
      [filePart("a.png", "image/png", png), { field: "platform", value: "platform_b" }],
      [filePart("a.png", "image/png", png), filePart("a.png", "image/png", png)],
    ]) {
      const other = await postUploads(tenant.key, parts, { headers });
      expect(other.status, JSON.stringify(other.body)).toBe(409);
      expect(other.body.error).toMatchObject({ code: "conflict", message: expect.stringMatching(/different request/) });
      expect(other.headers.get("retry-after")).toBeNull();
    }
    const list = await api(tenant.key)("/api/v1/uploads");
    expect(list.body.uploads.map((u: { id: string }) => u.id)).toEqual([first.body.uploads[0].id]);
    expect(storedOriginals(tenant.workspaceId)).toHaveLength(1);
  });

  it("keeps no answer for a body cut short: the client's retry under the key is run, not answered from the cut one", async () => {
    const tenant = await createTenant();
    const png = await makeImage("png");
    const headers = { "Idempotency-Key": "upload-after-a-drop" };
    const boundary = "----adloomcut";
    const url = new URL("/api/v1/uploads", inject("baseUrl"));
    // Half of the file, then the connection drops.
    await new Promise<void>((resolve) => {
      const req = http.request(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${tenant.key}`, "Content-Type": `multipart/form-data; boundary=${boundary}`, ...headers },
      });
      req.on("error", () => resolve());
      req.on("response", (res) => res.resume().on("end", resolve));
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
      req.write(png.subarray(0, png.length >> 1), () => setTimeout(() => req.destroy(), 200));
    });

    // The server may still be settling the cut request (409 with Retry-After): a client waits and repeats.
    let retry = await postUploads(tenant.key, [filePart("a.png", "image/png", png)], { headers });
    for (let i = 0; retry.status === 409 && retry.headers.get("retry-after") && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 200));
      retry = await postUploads(tenant.key, [filePart("a.png", "image/png", png)], { headers });
    }
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(storedOriginals(tenant.workspaceId)).toHaveLength(1);
    const again = await postUploads(tenant.key, [filePart("a.png", "image/png", png)], { headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(retry.body);
  });
});
