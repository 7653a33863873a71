import { describe, expect, it } from "vitest";
import { admin, api, createMemberKey, createTenant } from "../helpers/fixtures";
import { filePart, makeImage, postUploads, storedFiles, waitForUpload } from "./helpers";

async function uploadImages(key: string, names: string[], fields: { field: string; value: string }[] = []): Promise<string[]> {
  const parts = await Promise.all(names.map(async (n, i) => filePart(n, "image/png", await makeImage("png", { seed: i }))));
  const res = await postUploads(key, [...fields, ...parts]);
  expect(res.status).toBe(201);
  return res.body.uploads.map((u: { id: string }) => u.id);
}

describe("GET /api/v1/uploads", () => {
  it("lists newest first with a default page of 100 and nextCursor null on the last page", async () => {
    const tenant = await createTenant();
    const first = await uploadImages(tenant.key, ["one.png"]);
    const second = await uploadImages(tenant.key, ["two.png"]);
    const res = await api(tenant.key)("/api/v1/uploads");
    expect(res.status).toBe(200);
    expect(res.body.uploads.map((u: { id: string }) => u.id)).toEqual([...second, ...first]);
    expect(res.body.nextCursor).toBeNull();
  });

  it("pages with cursor, stable when uploads are added between pages", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    for (const name of ["a", "b", "c", "d", "e"]) await uploadImages(tenant.key, [`${name}.png`]);
    const page1 = await call("/api/v1/uploads?limit=2");
    expect(page1.body.uploads.map((u: { fileName: string }) => u.fileName)).toEqual(["e.png", "d.png"]);
    expect(page1.body.nextCursor).toEqual(expect.any(String));

    await uploadImages(tenant.key, ["late.png"]); // an insert between pages shifts nothing
    const page2 = await call(`/api/v1/uploads?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`);
    expect(page2.body.uploads.map((u: { fileName: string }) => u.fileName)).toEqual(["c.png", "b.png"]);
    const page3 = await call(`/api/v1/uploads?limit=2&cursor=${encodeURIComponent(page2.body.nextCursor)}`);
    expect(page3.body.uploads.map((u: { fileName: string }) => u.fileName)).toEqual(["a.png"]);
    expect(page3.body.nextCursor).toBeNull();
  });

  it("validates limit (1 to 200) and cursor", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    for (const bad of ["0", "201", "-1", "1.5", "abc", ""]) {
      const res = await call(`/api/v1/uploads?limit=${bad}`);
      expect(res.status, `limit=${bad}`).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message).toMatch(/limit/);
    }
    expect((await call("/api/v1/uploads?limit=1")).status).toBe(200);
    expect((await call("/api/v1/uploads?limit=200")).status).toBe(200);
    const badCursor = await call("/api/v1/uploads?cursor=not-a-cursor");
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.message).toMatch(/cursor/i);
  });

  it("shows a folder-scoped member only the uploads of their folders (and subfolders)", async () => {
    const tenant = await createTenant();
    const parent = (await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Brand"])).folderId;
    const child = (await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Q3", "--parent", parent])).folderId;
    const other = (await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Other"])).folderId;
    const inChild = await uploadImages(tenant.key, ["child.png"], [{ field: "folderId", value: child }]);
    const inOther = await uploadImages(tenant.key, ["other.png"], [{ field: "folderId", value: other }]);
    const atRoot = await uploadImages(tenant.key, ["root.png"]);

    const member = await createMemberKey(tenant, { role: "editor", folders: [parent] });
    const call = api(member.key);
    const list = await call("/api/v1/uploads");
    expect(list.body.uploads.map((u: { id: string }) => u.id)).toEqual(inChild);
    expect((await call(`/api/v1/uploads/${inChild[0]}`)).status).toBe(200);
    for (const id of [...inOther, ...atRoot]) {
      expect((await call(`/api/v1/uploads/${id}`)).status).toBe(404);
      expect((await call(`/api/v1/uploads/${id}`, { method: "DELETE" })).status).toBe(404);
      expect((await call(`/api/v1/uploads/${id}`, { method: "POST" })).status).toBe(404);
    }
    // The owner sees everything.
    expect((await api(tenant.key)("/api/v1/uploads")).body.uploads).toHaveLength(3);
  });
});

describe("one upload: get, retry, dismiss", () => {
  it("answers 404 for an unknown id", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    for (const method of ["GET", "POST", "DELETE"]) {
      const res = await call("/api/v1/uploads/upl_nope", { method });
      expect(res.status, method).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
  });

  it("answers 404 on every route when another workspace's key asks", async () => {
    const owner = await createTenant();
    const [id] = await uploadImages(owner.key, ["mine.png"]);
    await waitForUpload(api(owner.key), id!);
    const stranger = api((await createTenant()).key);
    expect((await stranger(`/api/v1/uploads/${id}`)).status).toBe(404);
    expect((await stranger(`/api/v1/uploads/${id}`, { method: "POST" })).status).toBe(404);
    expect((await stranger(`/api/v1/uploads/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await stranger("/api/v1/uploads")).body.uploads).toEqual([]);
    // ...and changed nothing.
    expect((await api(owner.key)(`/api/v1/uploads/${id}`)).status).toBe(200);
  });

  it("refuses to dismiss a processing upload (409) and to retry one that is not failed (404)", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    const [id] = await uploadImages(tenant.key, ["sandbox-slow-1.png"]);
    const dismiss = await call(`/api/v1/uploads/${id}`, { method: "DELETE" });
    expect(dismiss.status).toBe(409);
    expect(dismiss.body.error.code).toBe("conflict");
    const retry = await call(`/api/v1/uploads/${id}`, { method: "POST" });
    expect(retry.status).toBe(404);

    const done = await waitForUpload(call, id!);
    expect(done.status).toBe("completed");
    expect((await call(`/api/v1/uploads/${id}`, { method: "POST" })).status).toBe(404); // completed is not failed either
  });

  it("completes an upload with its platform id and dismisses it while its creative keeps the file", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    const [id] = await uploadImages(tenant.key, ["hero.png"]);
    const done = await waitForUpload(call, id!);
    expect(done).toMatchObject({ status: "completed", error: null, platform_a: { imageHash: expect.stringMatching(/^[0-9a-f]{32}$/), videoId: null } });
    expect(done.platform_b).toEqual({ imageId: null, videoId: null });

    const res = await call(`/api/v1/uploads/${id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await call(`/api/v1/uploads/${id}`)).status).toBe(404);
    expect((await call("/api/v1/uploads")).body.uploads).toEqual([]);
    // The creative made from it still has its media.
    const creatives = await call("/api/v1/creatives");
    expect(creatives.body.creatives.map((c: { fileName: string }) => c.fileName)).toContain("hero.png");
    expect(storedFiles(tenant.workspaceId).length).toBeGreaterThan(0);
  });

  it("retries a failed upload: processing again, error cleared, then failed again with a new error", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    const [id] = await uploadImages(tenant.key, ["sandbox-fail.png"]);
    const failed = await waitForUpload(call, id!, 60_000);
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual(expect.any(String));

    const retry = await call(`/api/v1/uploads/${id}`, { method: "POST" });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ upload: { id, status: "processing" } });
    const now = await call(`/api/v1/uploads/${id}`);
    expect(now.body.upload.status === "processing" || now.body.upload.status === "failed").toBe(true);
    if (now.body.upload.status === "processing") expect(now.body.upload.error).toBeNull();
    expect((await waitForUpload(call, id!, 60_000)).status).toBe("failed");
  }, 150_000);

  it("retries a sandbox-fail-once upload to completion", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    const [id] = await uploadImages(tenant.key, ["sandbox-fail-once.png"]);
    expect((await waitForUpload(call, id!, 60_000)).status).toBe("failed");
    expect((await call(`/api/v1/uploads/${id}`, { method: "POST" })).status).toBe(200);
    expect((await waitForUpload(call, id!, 60_000)).status).toBe("completed");
  }, 150_000);

  it("dismisses a failed upload and deletes its file, which no creative uses", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    const [id] = await uploadImages(tenant.key, ["sandbox-fail-dismiss.png"]);
    expect((await waitForUpload(call, id!, 60_000)).status).toBe("failed");
    expect(storedFiles(tenant.workspaceId)).toHaveLength(1);
    expect((await call(`/api/v1/uploads/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(storedFiles(tenant.workspaceId)).toEqual([]);
    expect((await call(`/api/v1/uploads/${id}`, { method: "DELETE" })).status).toBe(404);
  }, 120_000);

  it("lets retry and dismiss need the publish scope", async () => {
    const tenant = await createTenant();
    const [id] = await uploadImages(tenant.key, ["x.png"]);
    await waitForUpload(api(tenant.key), id!);
    const uploadOnly = api((await createMemberKey(tenant, { role: "editor", scopes: ["upload"] })).key);
    expect((await uploadOnly(`/api/v1/uploads/${id}`, { method: "DELETE" })).status).toBe(403);
    expect((await uploadOnly(`/api/v1/uploads/${id}`)).status).toBe(200); // reading needs no scope
  });
});
