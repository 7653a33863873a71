import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { admin, api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";

/** Uploads one image and returns its ready creative. */
async function readyImage(key: string, name: string, options: { folderId?: string } = {}) {
  const [uploadId] = await uploadIds(key, [{ name, type: "image/png", bytes: await pngImage(32, 24) }], options);
  const upload = await finishedUpload(key, uploadId!);
  expect(upload.status).toBe("completed");
  const creative = await waitFor(`creative ${name}`, async () => (await allCreatives(key)).find((c) => c.fileName === name));
  return creativeWhen(key, creative.id, (c) => c.status === "ready");
}

describe("GET /api/v1/creatives", () => {
  let tenant: Tenant;
  const names = ["one.png", "two.png", "three.png"];
  beforeAll(async () => {
    tenant = await createTenant();
    for (const name of names) await readyImage(tenant.key, name);
  });

  it("lists newest first with every Creative field", async () => {
    const res = await api(tenant.key)("/api/v1/creatives");
    expect(res.status).toBe(200);
    expect(res.body.creatives.map((c: any) => c.fileName)).toEqual([...names].reverse());
    expect(res.body.nextCursor).toBeNull();
    const c = res.body.creatives[0];
    expect(Object.keys(c).sort()).toEqual([
      "contentType",
      "copyCount",
      "createdAt",
      "fileName",
      "height",
      "id",
      "kind",
      "mediaPath",
      "previewPath",
      "status",
      "thumbnails",
      "width",
    ]);
    expect(c).toMatchObject({ kind: "image", contentType: "image/png", status: "ready", width: 32, height: 24, copyCount: 0, previewPath: null });
    expect(new Date(c.createdAt).toISOString()).toBe(c.createdAt);
  });

  it("pages with limit and cursor, stable across inserts", async () => {
    const first = await api(tenant.key)("/api/v1/creatives?limit=2");
    expect(first.body.creatives.map((c: any) => c.fileName)).toEqual(["three.png", "two.png"]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    await readyImage(tenant.key, "four.png");
    const second = await api(tenant.key)(`/api/v1/creatives?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.creatives.map((c: any) => c.fileName)).toEqual(["one.png"]);
    expect(second.body.nextCursor).toBeNull();
    expect((await api(tenant.key)("/api/v1/creatives?limit=0")).status).toBe(400);
    expect((await api(tenant.key)("/api/v1/creatives?cursor=garbage")).body.error.code).toBe("invalid_request");
  });

  it("shows another workspace none of them", async () => {
    const other = await createTenant();
    const res = await api(other.key)("/api/v1/creatives");
    expect(res).toMatchObject({ status: 200, body: { creatives: [], nextCursor: null } });
  });
});

describe("DELETE /api/v1/creatives", () => {
  it("deletes with copies and media files, skips unknown and foreign ids, and counts real deletions", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const a = await readyImage(tenant.key, "a.png");
    const b = await readyImage(tenant.key, "b.png");
    const keep = await readyImage(tenant.key, "keep.png");
    const foreign = await readyImage(other.key, "foreign.png");
    const copy = await api(tenant.key)(`/api/v1/creatives/${a.id}/copy`, { method: "POST", json: { headline: "Bye" } });
    expect(copy.status).toBe(201);
    const mediaUrl = `${inject("baseUrl")}${a.mediaPath}`;
    expect((await fetch(mediaUrl, { headers: { Authorization: `Bearer ${tenant.key}` } })).status).toBe(200);

    const res = await api(tenant.key)("/api/v1/creatives", { method: "DELETE", json: { ids: [a.id, b.id, b.id, foreign.id, "crv_doesnotexist"] } });
    expect(res).toMatchObject({ status: 200, body: { deleted: 2 } });
    expect((await allCreatives(tenant.key)).map((c) => c.id)).toEqual([keep.id]);
    expect((await allCreatives(other.key)).map((c) => c.id)).toEqual([foreign.id]);
    expect((await api(tenant.key)(`/api/v1/creatives/${a.id}/copy`)).status).toBe(404);
    expect((await fetch(mediaUrl, { headers: { Authorization: `Bearer ${tenant.key}` } })).status).toBe(404);
    if (inject("testDb") === "pglite") {
      // The embedded server keeps media under DATA_DIR/media/<workspace>/...: nothing of a or b remains.
      const dir = path.join(inject("dataDir"), "media", tenant.workspaceId);
      const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
      expect(files.filter((f) => f.includes(a.id) || f.includes(b.id))).toEqual([]);
    }

    const again = await api(tenant.key)("/api/v1/creatives", { method: "DELETE", json: { ids: [a.id] } });
    expect(again).toMatchObject({ status: 200, body: { deleted: 0 } });
  }, 120_000);

  it("rejects 0 or more than 200 ids, and bodies without ids, with 400", async () => {
    const tenant = await createTenant();
    const call = api(tenant.key);
    for (const json of [{ ids: [] }, { ids: Array.from({ length: 201 }, (_, i) => `crv_${i}`) }, {}, { ids: "crv_1" }]) {
      const res = await call("/api/v1/creatives", { method: "DELETE", json });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const max = await call("/api/v1/creatives", { method: "DELETE", json: { ids: Array.from({ length: 200 }, (_, i) => `crv_${i}`) } });
    expect(max).toMatchObject({ status: 200, body: { deleted: 0 } });
  });

  it("needs the delete permission: editors get 403", async () => {
    const tenant = await createTenant();
    const c = await readyImage(tenant.key, "guarded.png");
    const editor = await createMemberKey(tenant, { role: "editor" });
    const res = await api(editor.key)("/api/v1/creatives", { method: "DELETE", json: { ids: [c.id] } });
    expect(res.status).toBe(403);
    expect((await allCreatives(tenant.key)).map((x) => x.id)).toContain(c.id);
  });
});

describe("folder scoping of creatives", () => {
  it("a folder-scoped member sees and changes only creatives in their folders", async () => {
    const tenant = await createTenant();
    const { folderId: mine } = await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Mine"]);
    const { folderId: sub } = await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Sub", "--parent", mine!]);
    const { folderId: theirs } = await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Theirs"]);
    const inMine = await readyImage(tenant.key, "mine.png", { folderId: mine });
    const inSub = await readyImage(tenant.key, "sub.png", { folderId: sub });
    const inTheirs = await readyImage(tenant.key, "theirs.png", { folderId: theirs });
    const atRoot = await readyImage(tenant.key, "root.png");
    const member = await createMemberKey(tenant, { role: "admin", folders: [mine!] });
    const call = api(member.key);

    expect((await allCreatives(member.key)).map((c) => c.fileName).sort()).toEqual(["mine.png", "sub.png"]);
    expect((await allCreatives(tenant.key)).length).toBe(4);

    for (const hidden of [inTheirs, atRoot]) {
      expect((await call(`/api/v1/creatives/${hidden.id}/copy`)).status).toBe(404);
      expect((await call(`/api/v1/creatives/${hidden.id}/copy`, { method: "POST", json: { headline: "x" } })).status).toBe(404);
      expect((await call(`/api/v1/creatives/${hidden.id}/copy`, { method: "DELETE", json: { id: "copy_x" } })).status).toBe(404);
    }
    expect((await call(`/api/v1/creatives/${inSub.id}/copy`, { method: "POST", json: { headline: "ok" } })).status).toBe(201);

    const del = await call("/api/v1/creatives", { method: "DELETE", json: { ids: [inMine.id, inTheirs.id, atRoot.id] } });
    expect(del.body).toEqual({ deleted: 1 });
    expect((await allCreatives(tenant.key)).map((c) => c.fileName).sort()).toEqual(["root.png", "sub.png", "theirs.png"]);
  }, 120_000);
});
