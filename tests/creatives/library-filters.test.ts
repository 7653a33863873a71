/**
 * list_creatives' optional filters and sorts run in the database (issue 17: a library that
 * scales), and GET /api/v1/creatives answers as before.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { finishedUpload, uploadIds, waitFor, allCreatives } from "../helpers/library";
import { mp4Video, pngImage } from "../helpers/media-fixtures";
import { callTool, toolResult } from "../tools/helpers";

let t: Tenant;
let editor: { userId: string; key: string };
const ids: Record<string, string> = {};

async function upload(key: string, name: string, bytes: Buffer, type: string) {
  const [uploadId] = await uploadIds(key, [{ name, type, bytes }]);
  const done = await finishedUpload(key, uploadId!, 60_000);
  if (done.status !== "completed") throw new Error(`${name}: ${done.error}`);
  ids[name] = (await waitFor(name, async () => (await allCreatives(key)).find((c) => c.fileName === name && c.status === "ready"), 60_000)).id;
}
const names = async (input: Record<string, unknown>, key = t.key) => (await toolResult(key, "list_creatives", input)).creatives.map((c: any) => c.fileName);

beforeAll(async () => {
  t = await createTenant();
  editor = await createMemberKey(t, { role: "editor" });
  await upload(t.key, "wide-Banner.png", await pngImage(64, 32), "image/png");
  await upload(t.key, "tall-story.png", await pngImage(32, 64), "image/png");
  await upload(editor.key, "square-post.png", await pngImage(40, 40), "image/png");
  await upload(t.key, "clip.mp4", mp4Video(64, 36, 1), "video/mp4");
  await upload(t.key, "square-post-again.png", await pngImage(40, 40), "image/png");
}, 240_000);

describe("list_creatives filters", () => {
  it("search (any case), kind, aspect and status", async () => {
    expect(await names({ search: "BANNER" })).toEqual(["wide-Banner.png"]);
    expect(await names({ kind: "video" })).toEqual(["clip.mp4"]);
    expect((await names({ aspect: "landscape" })).sort()).toEqual(["clip.mp4", "wide-Banner.png"]);
    expect(await names({ aspect: "portrait" })).toEqual(["tall-story.png"]);
    expect(await names({ aspect: "square" })).toEqual(["square-post-again.png", "square-post.png"]);
    expect(await names({ status: "failed" })).toEqual([]);
  });

  it("uploader, date range and folder", async () => {
    expect(await names({ uploaderId: editor.userId })).toEqual(["square-post.png"]);
    expect(await names({ createdAfter: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect((await names({ createdBefore: new Date(Date.now() + 60_000).toISOString() })).length).toBe(5);
    const { folder } = await toolResult(t.key, "create_folder", { name: "Stories" });
    const { folder: sub } = await toolResult(t.key, "create_folder", { name: "Nested", parentId: folder.id });
    await toolResult(t.key, "move_creatives", { ids: [ids["tall-story.png"]], folderId: sub.id });
    expect(await names({ folderId: folder.id })).toEqual(["tall-story.png"]);
    expect(await names({ folderId: null })).not.toContain("tall-story.png");
  });

  it("sorts by name and oldest first, with cursors that keep the order", async () => {
    const byName: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await toolResult(t.key, "list_creatives", { sort: "name", limit: 2, ...(cursor ? { cursor } : {}) });
      byName.push(...page.creatives.map((c: any) => c.fileName));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(byName).toEqual(["clip.mp4", "square-post-again.png", "square-post.png", "tall-story.png", "wide-Banner.png"]);
    const oldest = await toolResult(t.key, "list_creatives", { sort: "oldest", limit: 2 });
    expect(oldest.creatives.map((c: any) => c.fileName)).toEqual(["wide-Banner.png", "tall-story.png"]);
    const mixed = await callTool(t.key, "list_creatives", { sort: "name", cursor: oldest.nextCursor });
    expect(mixed.status).toBe(400);
    expect((await callTool(t.key, "list_creatives", { aspect: "round" })).status).toBe(400);
  });

  it("GET /api/v1/creatives is unchanged by the filters: newest first, the same fields", async () => {
    const res = await api(t.key)("/api/v1/creatives?limit=2");
    expect(res.status).toBe(200);
    expect(res.body.creatives.map((c: any) => c.fileName)).toEqual(["square-post-again.png", "clip.mp4"]);
    expect(Object.keys(res.body.creatives[0]).sort()).toEqual([
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
  });
});
