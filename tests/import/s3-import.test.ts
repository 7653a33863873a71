// Import from an S3-compatible bucket (s3rver on loopback) through the tools, end to end: connect,
// browse, one-off import into creatives, duplicates skipped, watched folders, revocation, isolation.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { allCreatives } from "../helpers/library";
import { jpegImage, mp4Video, pngImage } from "../helpers/media-fixtures";
import { s3ConnectArgs, startS3Fake, type S3Fake } from "../helpers/s3-fake";
import { callTool, toolResult } from "../tools/helpers";
import { finishedRun, runWithCreatives, structuredPicture } from "./helpers";

let s3: S3Fake;
let t: Tenant;
let connectionId: string;

beforeAll(async () => {
  s3 = await startS3Fake();
  t = await createTenant();
  await s3.put("spring/hero.png", await pngImage(120, 80), "image/png");
  await s3.put("spring/square.jpg", await jpegImage(90, 90), "image/jpeg");
  await s3.put("spring/clip.mp4", mp4Video(320, 180));
  await s3.put("spring/notes.txt", "not a creative", "text/plain");
  await s3.put("spring/2026/deep.png", await pngImage(30, 30), "image/png");
  await s3.put("top.png", await pngImage(10, 20), "image/png");
  const { connection } = await toolResult(t.key, "connect_storage", s3ConnectArgs(s3, { name: "Creative bucket" }));
  connectionId = connection.id;
}, 60_000);

afterAll(async () => {
  await s3?.close();
});

describe("S3-compatible bucket", () => {
  it("connects with an access key, shows no secret, and refuses a wrong key or a missing bucket", async () => {
    const { connections } = await toolResult(t.key, "list_storage_connections", {});
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({ id: connectionId, provider: "s3", name: "Creative bucket", status: "active" });
    expect(connections[0].settings).toEqual({ bucket: s3.bucket, endpoint: s3.endpoint, region: "us-east-1", forcePathStyle: true });
    expect(JSON.stringify(connections)).not.toContain("secretAccessKey");

    const wrongKey = await callTool(t.key, "connect_storage", s3ConnectArgs(s3, { accessKeyId: "NOT-A-KEY", secretAccessKey: "wrong-secret" }));
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body.error.code).toBe("invalid_input");
    expect(wrongKey.body.error.message).toMatch(/refused the access key/);
    const noBucket = await callTool(t.key, "connect_storage", s3ConnectArgs(s3, { bucket: "no-such-bucket" }));
    expect(noBucket.status).toBe(400);
    expect(noBucket.body.error.message).toMatch(/no-such-bucket/);
    const badEndpoint = await callTool(t.key, "connect_storage", s3ConnectArgs(s3, { endpoint: "ftp://example.com" }));
    expect(badEndpoint.body.error).toMatchObject({ code: "invalid_input" });
    // The SDK refuses such a region before any request; it answered 502 "could not be reached".
    const badRegion = await callTool(t.key, "connect_storage", s3ConnectArgs(s3, { region: "us east 1" }));
    expect([badRegion.status, badRegion.body.error.code]).toEqual([400, "invalid_input"]);
    expect(badRegion.body.error.message).toMatch(/region/);
    expect((await toolResult(t.key, "list_storage_connections", {})).connections).toHaveLength(1);
  });

  it("browses one level at a time: sub-folders first, then files with size and ETag", async () => {
    const top = await toolResult(t.key, "browse_storage", { connectionId });
    expect(top.entries.map((e: any) => [e.name, e.isFolder])).toEqual([
      ["spring", true],
      ["top.png", false],
    ]);
    const spring = await toolResult(t.key, "browse_storage", { connectionId, path: "spring/" });
    expect(spring.entries.map((e: any) => e.id)).toEqual(["spring/2026/", "spring/clip.mp4", "spring/hero.png", "spring/notes.txt", "spring/square.jpg"]);
    const hero = spring.entries.find((e: any) => e.name === "hero.png");
    expect(hero.sizeBytes).toBeGreaterThan(0);
    expect(hero.revision).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it("imports picked files into creatives as uploads do; an unsupported file fails with the reason", async () => {
    const { run } = await toolResult(t.key, "import_files", { connectionId, paths: ["spring/hero.png", "spring/clip.mp4", "spring/notes.txt"] });
    expect(run).toMatchObject({ kind: "one_off", connectionId, itemCount: 3 });
    const done = await runWithCreatives(t.key, run.id);
    expect(done).toMatchObject({ status: "completed", importedCount: 2, failedCount: 1, skippedCount: 0 });
    const byName = Object.fromEntries(done.items.map((i: any) => [i.fileName, i]));
    expect(byName["notes.txt"]).toMatchObject({ status: "failed", uploadId: null });
    expect(byName["notes.txt"].error).toMatch(/not a supported image or video/);
    expect(byName["hero.png"].contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(byName["hero.png"].bytesDone).toBe(byName["hero.png"].sizeBytes);

    const upload = (await api(t.key)(`/api/v1/uploads/${byName["hero.png"].uploadId}`)).body.upload;
    expect(upload).toMatchObject({ status: "completed", fileName: "hero.png" });
    const creatives = await allCreatives(t.key);
    const hero = creatives.find((c) => c.id === byName["hero.png"].creativeId);
    expect(hero).toMatchObject({ fileName: "hero.png", kind: "image", contentType: "image/png" });
    const clip = creatives.find((c) => c.id === byName["clip.mp4"].creativeId);
    expect(clip).toMatchObject({ kind: "video", contentType: "video/mp4" });
  });

  it("skips a file imported before (same ETag) at once, and a renamed copy (same bytes) when read", async () => {
    await s3.put("copies/hero-renamed.png", await readBack("spring/hero.png"), "image/png");
    const { run } = await toolResult(t.key, "import_files", { connectionId, paths: ["spring/hero.png", "copies/hero-renamed.png"] });
    const done = await finishedRun(t.key, run.id);
    expect(done).toMatchObject({ importedCount: 0, skippedCount: 2, failedCount: 0 });
    const [again, renamed] = done.items;
    expect(again.error).toMatch(/Already imported \(same ETag\)/);
    expect(renamed.error).toMatch(/Same bytes as "hero.png"/);
    expect(renamed.uploadId).toBeNull();
  });

  it("four files with the same bytes in one import, transferred at once: one is imported, the others skip as its twins", async () => {
    const bytes = await pngImage(77, 55);
    const keys = ["twins/a.png", "twins/b.png", "twins/c.png", "twins/d.png"];
    for (const key of keys) await s3.put(key, bytes, "image/png");
    const { run } = await toolResult(t.key, "import_files", { connectionId, paths: keys });
    const done = await finishedRun(t.key, run.id);
    expect(done).toMatchObject({ importedCount: 1, skippedCount: 3, failedCount: 0 });
    const imported = done.items.find((i: any) => i.status === "imported");
    for (const twin of done.items.filter((i: any) => i.status === "skipped")) {
      expect(twin.error).toBe(`Same bytes as "${imported.fileName}", imported by run ${run.id}`);
      expect(twin.uploadId).toBeNull();
    }
  });

  it("imports a whole folder when its id is given, a file also named on its own once", async () => {
    const { run } = await toolResult(t.key, "import_files", { connectionId, paths: ["spring/2026/", "spring/2026/deep.png", "spring/2026/"] });
    const done = await finishedRun(t.key, run.id);
    expect(done.items.map((i: any) => [i.sourceId, i.status])).toEqual([["spring/2026/deep.png", "imported"]]);
  });

  it("watches a folder: new files import, a second sync imports nothing, renamed copies skip, near-duplicate images are flagged", async () => {
    const photo = await structuredPicture((x, y) => 128 + 90 * Math.sin(x / 17) * Math.cos(y / 23) + x / 4);
    await s3.put("watched/a.png", photo, "image/png");
    await s3.put("watched/b.jpg", await jpegImage(64, 64), "image/jpeg");
    const folder = (await toolResult(t.key, "create_folder", { name: `Imports ${Date.now()}` })).folder;
    const { watchedFolder } = await toolResult(t.key, "watch_storage_folder", { connectionId, path: "watched/", folderId: folder.id });
    expect(watchedFolder).toMatchObject({ connectionId, sourcePath: "watched/", folderId: folder.id, lastSyncAt: null });
    const again = await callTool(t.key, "watch_storage_folder", { connectionId, path: "watched/" });
    expect(again.status).toBe(409);

    const first = await runWithCreatives(t.key, (await toolResult(t.key, "sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    expect(first).toMatchObject({ kind: "sync", watchedFolderId: watchedFolder.id, itemCount: 2, importedCount: 2 });
    const inFolder = await toolResult(t.key, "list_creatives", { folderId: folder.id });
    expect(inFolder.creatives.map((c: any) => c.id).sort()).toEqual(first.items.map((i: any) => i.creativeId).sort());

    const second = await finishedRun(t.key, (await toolResult(t.key, "sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    expect(second).toMatchObject({ status: "completed", itemCount: 0, importedCount: 0 });

    await s3.put("watched/a-copy.png", photo, "image/png");
    // The same picture re-encoded as JPEG: other bytes, same image.
    await s3.put("watched/a-reencoded.jpg", await sharp(photo).jpeg({ quality: 70 }).toBuffer(), "image/jpeg");
    const third = await finishedRun(t.key, (await toolResult(t.key, "sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    expect(third).toMatchObject({ itemCount: 2, importedCount: 1, skippedCount: 1, duplicateCount: 1 });
    const byName = Object.fromEntries(third.items.map((i: any) => [i.fileName, i]));
    expect(byName["a-copy.png"]).toMatchObject({ status: "skipped" });
    const original = first.items.find((i: any) => i.fileName === "a.png");
    expect(byName["a-reencoded.jpg"]).toMatchObject({ status: "imported", nearDuplicateOf: original.id });

    const { runs } = await toolResult(t.key, "list_import_runs", { watchedFolderId: watchedFolder.id });
    expect(runs.map((r: any) => r.id)).toEqual([third.id, second.id, first.id]);
    expect(runs[0].items).toBeUndefined();
    const { watchedFolders } = await toolResult(t.key, "list_watched_folders", {});
    expect(watchedFolders.find((w: any) => w.id === watchedFolder.id).lastSyncAt).toEqual(expect.any(String));

    expect(await toolResult(t.key, "unwatch_storage_folder", { watchedFolderId: watchedFolder.id })).toEqual({ ok: true });
    expect((await callTool(t.key, "sync_watched_folder", { watchedFolderId: watchedFolder.id })).status).toBe(404);
  }, 120_000);

  it("a watched file that cannot be imported is tried by three syncs, then again only once it changes", async () => {
    await s3.put("stuck/readme.txt", "not a creative", "text/plain");
    const { watchedFolder } = await toolResult(t.key, "watch_storage_folder", { connectionId, path: "stuck/" });
    const sync = async () => finishedRun(t.key, (await toolResult(t.key, "sync_watched_folder", { watchedFolderId: watchedFolder.id })).run.id);
    for (let i = 0; i < 3; i++) expect(await sync()).toMatchObject({ itemCount: 1, failedCount: 1 });
    expect(await sync()).toMatchObject({ status: "completed", itemCount: 0 });
    await s3.put("stuck/readme.txt", "still not a creative", "text/plain");
    const changed = await sync();
    expect(changed).toMatchObject({ itemCount: 1, failedCount: 1 });
    expect(changed.items[0].error).toMatch(/not a supported image or video/);
    await toolResult(t.key, "unwatch_storage_folder", { watchedFolderId: watchedFolder.id });
  });

  it("two calls watching one folder at once: one watches it, the other answers 409 conflict", async () => {
    await s3.put("twice/a.png", await pngImage(14, 9), "image/png");
    const answers = await Promise.all([1, 2].map(() => callTool(t.key, "watch_storage_folder", { connectionId, path: "twice/" })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.status === 200)!.body.result.watchedFolder;
    expect(answers.find((a) => a.status === 409)!.body.error.code).toBe("conflict");
    await toolResult(t.key, "unwatch_storage_folder", { watchedFolderId: won.id });
  });

  it("keeps every workspace's connections, runs and folders to itself", async () => {
    const other = await createTenant();
    for (const [name, args] of [
      ["browse_storage", { connectionId }],
      ["import_files", { connectionId, paths: ["top.png"] }],
      ["disconnect_storage", { connectionId }],
      ["watch_storage_folder", { connectionId, path: "spring/" }],
    ] as const) {
      const res = await callTool(other.key, name, args);
      expect([name, res.status, res.body.error?.code]).toEqual([name, 404, "not_found"]);
    }
    expect((await toolResult(other.key, "list_storage_connections", {})).connections).toEqual([]);
    expect((await toolResult(other.key, "list_import_runs", {})).runs).toEqual([]);
  });

  it("needs the import scope", async () => {
    const scoped = await createMemberKey(t, { role: "editor", scopes: ["upload"] });
    const res = await callTool(scoped.key, "list_storage_connections", {});
    expect(res.status).toBe(403);
    const importer = await createMemberKey(t, { role: "editor", scopes: ["import"] });
    expect((await callTool(importer.key, "list_storage_connections", {})).status).toBe(200);
  });

  it("a disconnected connection stays listed as revoked and answers not_connected", async () => {
    const { connection } = await toolResult(t.key, "connect_storage", s3ConnectArgs(s3, { name: "Temporary" }));
    const { connection: revoked } = await toolResult(t.key, "disconnect_storage", { connectionId: connection.id });
    expect(revoked).toMatchObject({ status: "revoked", revokedAt: expect.any(String) });
    const browse = await callTool(t.key, "browse_storage", { connectionId: connection.id });
    expect(browse.status).toBe(400);
    expect(browse.body.error.code).toBe("not_connected");
    const { connections } = await toolResult(t.key, "list_storage_connections", {});
    expect(connections.find((c: any) => c.id === connection.id).status).toBe("revoked");
  });
});

async function readBack(key: string): Promise<Buffer> {
  const { GetObjectCommand } = await import("@aws-sdk/client-s3");
  const object = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}
