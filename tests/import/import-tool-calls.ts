import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
import { s3ConnectArgs, startS3Fake, type S3Fake } from "../helpers/s3-fake";
import { callTool, toolResult } from "../tools/helpers";
import { finishedRun, runWithCreatives } from "./helpers";

/** One S3 fake for the scenarios below, started on first use; the test process ends it. */
let fake: Promise<S3Fake> | null = null;
function s3(): Promise<S3Fake> {
  fake ??= startS3Fake(`tools-${Date.now()}`);
  return fake;
}

let uniq = 0;
async function connected(t: Tenant): Promise<{ s3: S3Fake; connectionId: string; prefix: string }> {
  const bucket = await s3();
  const prefix = `t${Date.now()}-${++uniq}/`;
  await bucket.put(`${prefix}one.png`, await pngImage(12 + uniq, 7), "image/png");
  const { connection } = await toolResult(t.key, "connect_storage", s3ConnectArgs(bucket));
  return { s3: bucket, connectionId: connection.id, prefix };
}

/** The import tools, one REST scenario each (tests/tools/every-tool.test.ts). */
export const IMPORT_TOOL_CALLS: Record<string, (t: Tenant) => Promise<void>> = {
  async connect_storage(t) {
    const { connectionId } = await connected(t);
    const { connection } = await toolResult(t.key, "connect_storage", { provider: "url", name: "Agency links" });
    expect(connection).toMatchObject({ provider: "url", name: "Agency links", status: "active", settings: {} });
    const ids = (await toolResult(t.key, "list_storage_connections", {})).connections.map((c: any) => c.id);
    expect(ids).toEqual([connection.id, connectionId]);
    const incomplete = await callTool(t.key, "connect_storage", { provider: "s3", bucket: "some-bucket" });
    expect([incomplete.status, incomplete.body.error.code]).toEqual([400, "invalid_input"]);
    expect(incomplete.body.error.message).toMatch(/accessKeyId, secretAccessKey required/);
    const dropbox = await callTool(t.key, "connect_storage", { provider: "dropbox" });
    expect(dropbox.status).toBe(400);
    expect(dropbox.body.error.code).toBe("invalid_input");
  },

  async list_storage_connections(t) {
    const { connectionId } = await connected(t);
    const { connections } = await toolResult(t.key, "list_storage_connections", {});
    expect(connections.map((c: any) => [c.id, c.status])).toEqual([[connectionId, "active"]]);
    expect((await toolResult((await createTenant()).key, "list_storage_connections", {})).connections).toEqual([]);
  },

  async disconnect_storage(t) {
    const { connectionId, prefix } = await connected(t);
    expect((await toolResult(t.key, "disconnect_storage", { connectionId })).connection.status).toBe("revoked");
    const res = await callTool(t.key, "import_files", { connectionId, paths: [`${prefix}one.png`] });
    expect([res.status, res.body.error.code]).toEqual([400, "not_connected"]);
  },

  async browse_storage(t) {
    const { connectionId, prefix } = await connected(t);
    const { entries, nextCursor } = await toolResult(t.key, "browse_storage", { connectionId, path: prefix });
    expect(entries.map((e: any) => [e.id, e.isFolder])).toEqual([[`${prefix}one.png`, false]]);
    expect(nextCursor).toBeNull();
  },

  async import_files(t) {
    const { connectionId, prefix } = await connected(t);
    const { run } = await toolResult(t.key, "import_files", { connectionId, paths: [`${prefix}one.png`], platform: "platform_b" });
    const done = await runWithCreatives(t.key, run.id);
    expect(done.items.map((i: any) => i.status)).toEqual(["imported"]);
    const upload = (await api(t.key)(`/api/v1/uploads/${done.items[0].uploadId}`)).body.upload;
    expect(upload).toMatchObject({ status: "completed", platform: "platform_b", fileName: "one.png" });
    const missing = await callTool(t.key, "import_files", { connectionId, paths: [`${prefix}missing.png`] });
    expect([missing.status, missing.body.error.code]).toEqual([404, "not_found"]);
  },

  async list_import_runs(t) {
    const { connectionId, prefix } = await connected(t);
    const first = (await toolResult(t.key, "import_files", { connectionId, paths: [`${prefix}one.png`] })).run;
    const second = (await toolResult(t.key, "import_files", { connectionId, paths: [`${prefix}one.png`] })).run;
    const page = await toolResult(t.key, "list_import_runs", { limit: 1 });
    expect(page.runs.map((r: any) => r.id)).toEqual([second.id]);
    const next = await toolResult(t.key, "list_import_runs", { limit: 1, cursor: page.nextCursor });
    expect(next.runs.map((r: any) => r.id)).toEqual([first.id]);
    expect((await finishedRun(t.key, second.id)).items[0].error).toMatch(/Already imported/);
    const other = await callTool((await createTenant()).key, "list_import_runs", { runId: first.id });
    expect(other.status).toBe(404);
  },

  async watch_storage_folder(t) {
    const { connectionId, prefix } = await connected(t);
    const { watchedFolder } = await toolResult(t.key, "watch_storage_folder", { connectionId, path: prefix });
    expect(watchedFolder).toMatchObject({ connectionId, sourcePath: prefix, lastSyncAt: null });
    const badFolder = await callTool(t.key, "watch_storage_folder", { connectionId, path: "elsewhere/", folderId: "fld_nope" });
    expect(badFolder.status).toBe(400);
  },

  async list_watched_folders(t) {
    const { connectionId, prefix } = await connected(t);
    const { watchedFolder } = await toolResult(t.key, "watch_storage_folder", { connectionId, path: prefix });
    expect((await toolResult(t.key, "list_watched_folders", {})).watchedFolders.map((w: any) => w.id)).toEqual([watchedFolder.id]);
  },

  async sync_watched_folder(t) {
    const { connectionId, prefix } = await connected(t);
    const { watchedFolder } = await toolResult(t.key, "watch_storage_folder", { connectionId, path: prefix });
    const { run } = await toolResult(t.key, "sync_watched_folder", { watchedFolderId: watchedFolder.id });
    expect((await finishedRun(t.key, run.id)).importedCount).toBe(1);
  },

  async unwatch_storage_folder(t) {
    const { connectionId, prefix } = await connected(t);
    const { watchedFolder } = await toolResult(t.key, "watch_storage_folder", { connectionId, path: prefix });
    expect(await toolResult(t.key, "unwatch_storage_folder", { watchedFolderId: watchedFolder.id })).toEqual({ ok: true });
    expect((await toolResult(t.key, "list_watched_folders", {})).watchedFolders).toEqual([]);
    expect((await callTool(t.key, "unwatch_storage_folder", { watchedFolderId: watchedFolder.id })).status).toBe(404);
  },
};

/** A loopback HTTP server answering `files` by path (the test server allows private URLs, WEBHOOKS_ALLOW_PRIVATE_URLS=1). */
export async function fileServer(files: Record<string, { type: string; bytes: Buffer }>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === "/moved") {
      res.writeHead(302, { location: "/a.png" }).end();
      return;
    }
    const file = files[req.url ?? ""];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": file.type, "content-length": file.bytes.length, etag: '"v1"' }).end(file.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
