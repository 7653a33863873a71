import { beforeAll, describe, expect, it } from "vitest";
import { api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";

let tenant: Tenant;
let creativeId: string;

async function newCreative(key: string, name: string): Promise<string> {
  const [uploadId] = await uploadIds(key, [{ name, type: "image/png", bytes: await pngImage(16, 16) }]);
  await finishedUpload(key, uploadId!);
  const creative = await waitFor(name, async () => (await allCreatives(key)).find((c) => c.fileName === name));
  await creativeWhen(key, creative.id, (c) => c.status === "ready");
  return creative.id;
}

beforeAll(async () => {
  tenant = await createTenant();
  creativeId = await newCreative(tenant.key, "copy-target.png");
});

describe("copy variants", () => {
  it("creates (201), updates by id (200), lists newest first and counts them on the creative", async () => {
    const call = api(tenant.key);
    const path = `/api/v1/creatives/${creativeId}/copy`;
    const first = await call(path, { method: "POST", json: { headline: "Only a headline" } });
    expect(first).toMatchObject({ status: 201, body: { id: expect.any(String) } });
    const second = await call(path, { method: "POST", json: { headline: "H", primaryText: "P", description: "D", label: "v2" } });
    expect(second.status).toBe(201);
    const empty = await call(path, { method: "POST" });
    expect(empty.status).toBe(201);

    const updated = await call(path, { method: "POST", json: { id: first.body.id, label: "winner", description: null } });
    expect(updated).toEqual(expect.objectContaining({ status: 200, body: { id: first.body.id } }));
    const untouched = await call(path, { method: "POST", json: { id: first.body.id } });
    expect(untouched).toEqual(expect.objectContaining({ status: 200, body: { id: first.body.id } }));

    const list = await call(path);
    expect(list.status).toBe(200);
    expect(list.body.copies.map((c: any) => c.id)).toEqual([empty.body.id, second.body.id, first.body.id]);
    expect(list.body.copies[2]).toEqual({
      id: first.body.id,
      headline: "Only a headline",
      primaryText: null,
      description: null,
      label: "winner",
      createdAt: expect.any(String),
    });
    expect(list.body.copies[1]).toMatchObject({ headline: "H", primaryText: "P", description: "D", label: "v2" });
    expect(list.body.nextCursor).toBeNull();

    const paged = await call(`${path}?limit=2`);
    expect(paged.body.copies).toHaveLength(2);
    const rest = await call(`${path}?limit=2&cursor=${paged.body.nextCursor}`);
    expect(rest.body.copies.map((c: any) => c.id)).toEqual([first.body.id]);

    const creative = (await allCreatives(tenant.key)).find((c) => c.id === creativeId);
    expect(creative.copyCount).toBe(3);

    expect((await call(path, { method: "DELETE", json: { id: second.body.id } })).body).toEqual({ ok: true });
    expect((await call(path)).body.copies.map((c: any) => c.id)).toEqual([empty.body.id, first.body.id]);
    expect((await allCreatives(tenant.key)).find((c) => c.id === creativeId).copyCount).toBe(2);
  });

  it("enforces the length limits (in characters) with 400 and stores nothing", async () => {
    const id = await newCreative(tenant.key, "limits.png");
    const call = api(tenant.key);
    const path = `/api/v1/creatives/${id}/copy`;
    const limits = { headline: 500, primaryText: 5000, description: 1000, label: 100 };
    for (const [field, max] of Object.entries(limits)) {
      const ok = await call(path, { method: "POST", json: { [field]: "é".repeat(max) } });
      expect(ok.status, field).toBe(201);
      const tooLong = await call(path, { method: "POST", json: { [field]: "x".repeat(max + 1) } });
      expect(tooLong.status, field).toBe(400);
      expect(tooLong.body.error.code).toBe("invalid_request");
      expect(tooLong.body.error.message).toContain(field);
    }
    expect((await call(path, { method: "POST", json: { headline: "😀".repeat(500) } })).status).toBe(201);
    expect((await call(path, { method: "POST", json: { headline: 42 } })).status).toBe(400);
    expect((await call(path, { method: "POST", body: "{not json", headers: { "Content-Type": "application/json" } })).status).toBe(400);
    expect((await call(path)).body.copies).toHaveLength(5);
  });

  it("answers 404 for an unknown variant id on update or delete, and 400 for a delete without id", async () => {
    const call = api(tenant.key);
    const path = `/api/v1/creatives/${creativeId}/copy`;
    const update = await call(path, { method: "POST", json: { id: "copy_nope", headline: "x" } });
    expect(update.status).toBe(404);
    expect(update.body.error.code).toBe("not_found");
    expect((await call(path, { method: "DELETE", json: { id: "copy_nope" } })).status).toBe(404);
    const missing = await call(path, { method: "DELETE", json: {} });
    expect(missing.status).toBe(400);
    expect((await call(path, { method: "DELETE" })).status).toBe(400);

    // A variant of another creative cannot be reached through this one.
    const otherCreative = await newCreative(tenant.key, "second.png");
    const foreignVariant = await call(`/api/v1/creatives/${otherCreative}/copy`, { method: "POST", json: { headline: "theirs" } });
    expect((await call(path, { method: "POST", json: { id: foreignVariant.body.id, headline: "hijack" } })).status).toBe(404);
    expect((await call(path, { method: "DELETE", json: { id: foreignVariant.body.id } })).status).toBe(404);
    expect((await call(`/api/v1/creatives/${otherCreative}/copy`)).body.copies[0].headline).toBe("theirs");
  });

  it("answers 404 on every route for an unknown or another workspace's creative", async () => {
    const other = await createTenant();
    const variant = await api(tenant.key)(`/api/v1/creatives/${creativeId}/copy`, { method: "POST", json: { headline: "private" } });
    for (const id of [creativeId, "crv_unknown"]) {
      const call = api(other.key);
      const path = `/api/v1/creatives/${id}/copy`;
      expect((await call(path)).status).toBe(404);
      expect((await call(path, { method: "POST", json: { headline: "x" } })).status).toBe(404);
      expect((await call(path, { method: "POST", json: { id: variant.body.id, headline: "x" } })).status).toBe(404);
      expect((await call(path, { method: "DELETE", json: { id: variant.body.id } })).status).toBe(404);
    }
    const mine = await api(tenant.key)(`/api/v1/creatives/${creativeId}/copy`);
    expect(mine.body.copies.find((c: any) => c.id === variant.body.id).headline).toBe("private");
  });

  it("follows permissions: viewers read, editors write but cannot delete, scoped keys need edit", async () => {
    const path = `/api/v1/creatives/${creativeId}/copy`;
    const viewer = await createMemberKey(tenant, { role: "viewer" });
    expect((await api(viewer.key)(path)).status).toBe(200);
    expect((await api(viewer.key)(path, { method: "POST", json: { headline: "x" } })).status).toBe(403);
    const editor = await createMemberKey(tenant, { role: "editor" });
    const made = await api(editor.key)(path, { method: "POST", json: { headline: "by editor" } });
    expect(made.status).toBe(201);
    expect((await api(editor.key)(path, { method: "DELETE", json: { id: made.body.id } })).status).toBe(403);
    const uploadOnly = await createMemberKey(tenant, { role: "admin", scopes: ["upload"] });
    expect((await api(uploadOnly.key)(path, { method: "POST", json: { headline: "x" } })).status).toBe(403);
    const editScoped = await createMemberKey(tenant, { role: "admin", scopes: ["edit"] });
    expect((await api(editScoped.key)(path, { method: "DELETE", json: { id: made.body.id } })).body).toEqual({ ok: true });
  });
});
