import { describe, expect, it } from "vitest";
import { catalog } from "@/lib/tools/catalog";
import { api, createMemberKey, createTenant } from "../helpers/fixtures";
import { callTool, toolResult } from "./helpers";

describe("GET /api/v1/tools", () => {
  it("serves the catalog with a strong content ETag and answers 304 to If-None-Match", async () => {
    const t = await createTenant();
    const first = await api(t.key)("/api/v1/tools");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const tool = first.body.tools.find((x: any) => x.name === "delete_folder");
    expect(tool).toMatchObject({ category: "folders", destructive: true, readOnly: false, inputSchema: { type: "object", required: ["id"] } });
    expect(tool.inputSchema.properties.idempotencyKey).toMatchObject({ type: "string", maxLength: 200 });
    const account = first.body.tools.find((x: any) => x.name === "get_account");
    expect(account.outputSchema.properties.account.properties.plan).toMatchObject({ type: ["string", "null"], nullable: true });

    // Derived from content alone: this test process computes the same tag as the server process.
    expect(etag).toBe(catalog().etag);
    // Another key, another workspace: the same catalog, the same tag.
    const other = await createTenant();
    const again = await api(other.key)("/api/v1/tools");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.body).toEqual(first.body);

    const revalidated = await api(t.key)("/api/v1/tools", { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBeUndefined();
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect((await api(t.key)("/api/v1/tools", { headers: { "If-None-Match": `W/${etag}, "other"` } })).status).toBe(304);
    expect((await api(t.key)("/api/v1/tools", { headers: { "If-None-Match": '"stale"' } })).status).toBe(200);
  });

  it("needs a valid key and an active plan", async () => {
    expect((await api("adl_notakey")("/api/v1/tools")).body.error.code).toBe("unauthorized");
    const lapsed = await createTenant({ plan: "none" });
    const res = await api(lapsed.key)("/api/v1/tools");
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("subscription_required");
  });
});

describe("POST /api/v1/tools/{name}", () => {
  it("answers 404 not_found for an unknown tool", async () => {
    const t = await createTenant();
    const res = await callTool(t.key, "launch_rockets", {});
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "not_found", message: expect.stringContaining("launch_rockets") });
  });

  it("validates arguments against the schema: types, enums, array limits, numeric ranges, unknown names", async () => {
    const t = await createTenant();
    const cases: [string, unknown, RegExp][] = [
      ["rename_folder", { id: 42, name: "x" }, /^Invalid input: id: /],
      ["create_upload", { files: [{ fileName: "a.png", contentBase64: "AA==" }], platform: "platform_z" }, /^Invalid input: platform: /],
      ["delete_creatives", { ids: Array.from({ length: 201 }, (_, i) => `crt_${i}`) }, /^Invalid input: ids: /],
      ["list_uploads", { limit: 0 }, /^Invalid input: limit: /],
      ["list_creatives", { limit: 201 }, /^Invalid input: limit: /],
      ["list_folders", { limit: 1.5 }, /^Invalid input: limit: /],
      ["get_upload", {}, /^Invalid input: id: /],
      ["get_account", { surprise: true }, /^Invalid input: .*surprise/],
      ["create_folder", { name: "x", idempotencyKey: "" }, /^Invalid input: idempotencyKey: /],
    ];
    for (const [name, args, message] of cases) {
      const res = await callTool(t.key, name, args);
      expect(res.status, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
      expect(res.body.error.message).toMatch(message);
    }
    const notJson = await api(t.key)("/api/v1/tools/get_account", { method: "POST", body: "{oops", headers: { "Content-Type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(/^Invalid input:/) });
    const notObject = await callTool(t.key, "get_account", [1, 2]);
    expect(notObject.body.error.message).toMatch(/^Invalid input: the arguments must be a JSON object/);
    // No body at all is an empty argument object.
    expect((await callTool(t.key, "get_account")).status).toBe(200);
  });

  it("checks the role and the key's scopes inside every call", async () => {
    const t = await createTenant();
    const { folder } = await toolResult(t.key, "create_folder", { name: "Shared" });
    const viewer = await createMemberKey(t, { role: "viewer" });
    expect((await callTool(viewer.key, "list_folders", {})).status).toBe(200);
    const denied = await callTool(viewer.key, "create_folder", { name: "Nope" });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: "forbidden", message: expect.stringContaining("library.write") });

    const editor = await createMemberKey(t, { role: "editor" });
    expect((await callTool(editor.key, "delete_folder", { id: folder.id })).body.error.code).toBe("forbidden");

    const uploadOnly = await createMemberKey(t, { role: "admin", scopes: ["upload"] });
    expect((await callTool(uploadOnly.key, "rename_folder", { id: folder.id, name: "Renamed" })).status).toBe(200);
    const scoped = await callTool(uploadOnly.key, "delete_folder", { id: folder.id });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error.message).toContain('"delete"');
    expect((await callTool(uploadOnly.key, "get_webhook", {})).body.error.code).toBe("forbidden");
    // Authorization comes before validation: a refused caller learns nothing about the arguments.
    expect((await callTool(viewer.key, "create_folder", { wrong: 1 })).body.error.code).toBe("forbidden");
  });

  it("limits folder-scoped members to their folders and hides other workspaces", async () => {
    const t = await createTenant();
    const { folder: mine } = await toolResult(t.key, "create_folder", { name: "Mine" });
    const { folder: hidden } = await toolResult(t.key, "create_folder", { name: "Hidden" });
    const scoped = await createMemberKey(t, { role: "editor", folders: [mine.id] });
    expect((await toolResult(scoped.key, "list_folders", {})).folders.map((f: any) => f.id)).toEqual([mine.id]);
    expect((await callTool(scoped.key, "rename_folder", { id: hidden.id, name: "x" })).status).toBe(404);
    expect((await callTool(scoped.key, "create_folder", { name: "At root" })).body.error.code).toBe("forbidden");
    expect((await toolResult(scoped.key, "create_folder", { name: "Inside", parentId: mine.id })).folder.parentId).toBe(mine.id);

    const stranger = await createTenant();
    expect((await callTool(stranger.key, "rename_folder", { id: mine.id, name: "x" })).body.error.code).toBe("not_found");
    expect((await toolResult(stranger.key, "list_folders", {})).folders).toEqual([]);
  });

  it("refuses calls without a key or plan with the general codes", async () => {
    expect((await callTool(null, "get_account", {})).status).toBe(401);
    const lapsed = await createTenant({ plan: "none" });
    const res = await callTool(lapsed.key, "get_account", {});
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("subscription_required");
  });

  it("treats idempotencyKey in the arguments like the Idempotency-Key header", async () => {
    const t = await createTenant();
    const first = await callTool(t.key, "create_folder", { name: "Once", idempotencyKey: "k-1" });
    const replay = await callTool(t.key, "create_folder", { idempotencyKey: "k-1", name: "Once" });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await toolResult(t.key, "list_folders", {})).folders).toHaveLength(1);

    // The header is the same key space: a header replay of the argument's key.
    const viaHeader = await callTool(t.key, "create_folder", { name: "Once" }, { "Idempotency-Key": "k-1" });
    expect(viaHeader.body).toEqual(first.body);

    const otherTool = await callTool(t.key, "rename_folder", { id: first.body.result.folder.id, name: "x", idempotencyKey: "k-1" });
    expect(otherTool.status).toBe(409);
    expect(otherTool.body.error.code).toBe("conflict");
    const otherArgs = await callTool(t.key, "create_folder", { name: "Twice", idempotencyKey: "k-1" });
    expect(otherArgs.status).toBe(409);

    const disagree = await callTool(t.key, "create_folder", { name: "x", idempotencyKey: "a" }, { "Idempotency-Key": "b" });
    expect(disagree.status).toBe(400);
    expect(disagree.body.error.code).toBe("invalid_input");

    // Refusals that are the caller's to fix are replayed too; the key stays bound to them.
    const bad = await callTool(t.key, "rename_folder", { id: "fld_missing", name: "x", idempotencyKey: "k-2" });
    expect(bad.status).toBe(404);
    expect((await callTool(t.key, "rename_folder", { id: "fld_missing", name: "x", idempotencyKey: "k-2" })).headers.get("idempotent-replayed")).toBe("true");

    // Another workspace has its own key space.
    const other = await createTenant();
    expect((await callTool(other.key, "create_folder", { name: "Mine", idempotencyKey: "k-1" })).body.result.folder.name).toBe("Mine");
  });
});
