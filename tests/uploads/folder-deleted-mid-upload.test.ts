/**
 * A library folder deleted while an upload into it is still streaming in (its field already checked, its
 * rows not yet recorded). Deleting a folder that holds uploads or creatives is refused (409), so this is the
 * one moment it can go: the uploads then land at the library root, as if sent without a folder; they never
 * keep the id of a folder that no longer exists (a creative filed there would be in no folder at all).
 * A folder-scoped member cannot use the root, so their request is refused instead and leaves nothing behind.
 */
import { describe, expect, it } from "vitest";
import { admin, api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { finishedUpload, waitFor } from "../helpers/library";
import { filePart, makeImage, postUploads, storedFiles, storedOriginals } from "./helpers";
import { tusCreate, tusPatch } from "./tus";

const tools = (key: string) => async (name: string, args: object) => api(key)(`/api/v1/tools/${name}`, { method: "POST", json: args });

async function createFolder(tenant: Tenant, name: string, parentId?: string): Promise<string> {
  const res = await tools(tenant.key)("create_folder", { name, ...(parentId ? { parentId } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.folder.id;
}

/** A file part whose first bytes go out at once and the rest only once `gate` resolves. */
function heldBack(bytes: Buffer, gate: Promise<void>): () => AsyncIterable<Buffer> {
  return async function* () {
    yield bytes.subarray(0, 16);
    await gate;
    yield bytes.subarray(16);
  };
}

/** The creatives `list_creatives` files at the library root (folderId null), by id. */
async function rootCreativeIds(key: string): Promise<string[]> {
  const res = await tools(key)("list_creatives", { folderId: null, limit: 200 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.creatives.map((c: { id: string }) => c.id);
}

/** Waits for the upload's job to finish and its creative to be ready; returns the creative's id. */
async function readyCreativeOf(key: string, uploadId: string): Promise<string> {
  const upload = await finishedUpload(key, uploadId, 60_000);
  expect(upload, JSON.stringify(upload)).toMatchObject({ status: "completed" });
  const creativeId: string = upload.creativeId;
  await waitFor(`creative ${creativeId} ready`, async () => {
    const res = await api(key)(`/api/v1/tools/get_creative`, { method: "POST", json: { id: creativeId } });
    return res.status === 200 && res.body.result.creative.status === "ready";
  });
  return creativeId;
}

describe("a folder deleted while an upload into it streams", () => {
  it("multipart: the folder goes (it was empty), the request's files land at the library root and are listed there", async () => {
    const tenant = await createTenant();
    const folderId = await createFolder(tenant, "Spring");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = await makeImage("png", { seed: 11 });
    const second = await makeImage("png", { seed: 12 });
    const request = postUploads(tenant.key, [
      { field: "folderId", value: folderId },
      filePart("first.png", "image/png", first),
      filePart("second.png", "image/png", heldBack(second, gate)),
    ]);
    // The first file is stored (so the folder was checked: fields are checked before each file), the second still streaming.
    await waitFor("the first file stored", async () => storedOriginals(tenant.workspaceId).length === 1, 30_000, 50);
    const deleted = await tools(tenant.key)("delete_folder", { id: folderId });
    expect(deleted, JSON.stringify(deleted.body)).toMatchObject({ status: 200, body: { result: { ok: true } } });
    release();

    const res = await request;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const uploadIds: string[] = res.body.uploads.map((u: { id: string }) => u.id);
    expect(uploadIds).toHaveLength(2);
    const creativeIds = [];
    for (const id of uploadIds) creativeIds.push(await readyCreativeOf(tenant.key, id));

    // Filed at the root: listed there and in the whole library, and nowhere else (the workspace has no folder left).
    expect((await rootCreativeIds(tenant.key)).sort()).toEqual([...creativeIds].sort());
    const listed = await api(tenant.key)("/api/v1/creatives");
    expect(listed.body.creatives.map((c: { id: string }) => c.id).sort()).toEqual([...creativeIds].sort());
    expect((await tools(tenant.key)("list_folders", {})).body.result.folders).toEqual([]);
    // Nothing half-written: one stored original per upload, no other.
    expect(storedOriginals(tenant.workspaceId)).toHaveLength(2);
  }, 120_000);

  it("multipart from a folder-scoped member: refused (the root is not theirs), no upload recorded and no file kept", async () => {
    const tenant = await createTenant();
    const theirs = await createFolder(tenant, "Agency");
    const inside = await createFolder(tenant, "Drafts", theirs);
    const member = await createMemberKey(tenant, { role: "editor", folders: [theirs] });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const request = postUploads(member.key, [
      { field: "folderId", value: inside },
      filePart("first.png", "image/png", await makeImage("png", { seed: 21 })),
      filePart("second.png", "image/png", heldBack(await makeImage("png", { seed: 22 }), gate)),
    ]);
    await waitFor("the first file stored", async () => storedOriginals(tenant.workspaceId).length === 1, 30_000, 50);
    expect((await tools(tenant.key)("delete_folder", { id: inside })).status).toBe(200);
    release();

    const res = await request;
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_request" });
    expect(res.body.error.message).toMatch(/was deleted while the files were uploading/);
    expect((await api(tenant.key)("/api/v1/uploads")).body.uploads).toEqual([]);
    expect(storedFiles(tenant.workspaceId)).toEqual([]);
    // Their own folder still takes uploads.
    const ok = await postUploads(member.key, [{ field: "folderId", value: theirs }, filePart("a.png", "image/png", await makeImage("png"))]);
    expect(ok.status).toBe(201);
  }, 120_000);

  it("resumable (tus): checked when created, the folder deleted mid-transfer, the finished upload lands at the root", async () => {
    const tenant = await createTenant();
    const folderId = (await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Summer"])).folderId;
    const png = await makeImage("png", { width: 300, height: 200, seed: 31 });
    const created = await tusCreate(tenant.key, png.length, { filename: "summer.png", filetype: "image/png", folderId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const half = Math.floor(png.length / 2);
    expect((await tusPatch(tenant.key, created.url, 0, png.subarray(0, half))).status).toBe(204);

    expect((await tools(tenant.key)("delete_folder", { id: folderId })).status).toBe(200);
    const uploadId = created.url.split("/").pop()!;
    const last = await tusPatch(tenant.key, created.url, half, png.subarray(half));
    expect(last, JSON.stringify(last.body)).toMatchObject({ status: 200, body: { uploads: [{ id: uploadId, status: "processing" }] } });

    const creativeId = await readyCreativeOf(tenant.key, uploadId);
    expect(await rootCreativeIds(tenant.key)).toEqual([creativeId]);
  }, 120_000);
});
