import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { currentOwner } from "@adloom/pglite-driver";
import { api, createTenant } from "../helpers/fixtures";
import { finishedUpload, waitFor } from "../helpers/library";
import { freshDatabaseUrl } from "../helpers/fresh-database";
import { migratedDataDir, startServer, tempDataDir, type TestServer } from "../helpers/server";
import { makeImage, storedFiles } from "../uploads/helpers";
import { cutPatch, largeVideo, partStaged, settledOffset, sha256, tusCreate, tusHead, tusPatch } from "../uploads/tus";
import { paced } from "../../scripts/test-pace.mjs";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
});

async function dataDirFor(label: string) {
  const databaseUrl = await freshDatabaseUrl(label);
  return { databaseUrl, dataDir: databaseUrl ? tempDataDir(label) : await migratedDataDir(label) };
}

describe("resumable uploads across a crash and past their expiry", () => {
  it("a server killed (-9) mid-PATCH: after restart HEAD reports the offset, the rest completes with identical bytes", async () => {
    const { databaseUrl, dataDir } = await dataDirFor("tus_restart");
    const first = await startServer({ dataDir, databaseUrl });
    servers.push(first);
    const tenant = await createTenant({ dataDir });
    const video = largeVideo();
    const created = await tusCreate(tenant.key, video.length, { filename: "crash.mp4", filetype: "video/mp4" }, { baseUrl: first.url });
    expect(created.status).toBe(201);
    const uploadId = created.url.split("/").pop()!;

    const half = Math.floor(video.length / 2);
    // Killed once the server has staged part of the PATCH on disk: mid-write, not before it began.
    await cutPatch(tenant.key, created.url, 0, video, half, async () => {
      await partStaged(dataDir, uploadId, Math.min(64 * 1024, half));
      await first.kill();
    });
    await waitFor("the killed server's database lock to be released", async () => currentOwner(path.join(dataDir, "db")) === null || undefined, 15_000);

    const second = await startServer({ dataDir, databaseUrl });
    servers.push(second);
    const url = created.url.replace(first.url, second.url);
    const offset = await settledOffset(tenant.key, url);
    expect(offset).toBeLessThanOrEqual(half);
    const done = await tusPatch(tenant.key, url, offset, video.subarray(offset));
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ uploads: [{ id: uploadId, status: "processing" }] });

    const upload = await finishedUpload(tenant.key, uploadId, 90_000, second.url);
    expect(upload).toMatchObject({ status: "completed", sizeBytes: video.length });
    const stored = storedFiles(tenant.workspaceId, dataDir).filter((f) => f.endsWith(`/uploads/${uploadId}`));
    expect(sha256(fs.readFileSync(stored[0]!))).toBe(sha256(video));
    // The staged copy is gone once the upload is recorded.
    expect(fs.readdirSync(path.join(dataDir, "tus")).filter((f) => f.startsWith(uploadId))).toEqual([]);
    await second.stop();
  }, 240_000);

  it("an expired unfinished upload answers 410, is swept from disk and never becomes an upload or a creative", async () => {
    const { databaseUrl, dataDir } = await dataDirFor("tus_expiry");
    // Long enough for the first half to arrive before it expires: 3 s at the usual pace, stretched on a slow machine.
    const expirySeconds = Math.ceil(paced(3000) / 1000);
    const server = await startServer({ dataDir, databaseUrl, env: { RESUMABLE_UPLOAD_EXPIRY_SECONDS: String(expirySeconds) } });
    servers.push(server);
    const tenant = await createTenant({ dataDir });
    const png = await makeImage("png", { width: 200, height: 200 });
    const created = await tusCreate(tenant.key, png.length, { filename: "late.png", filetype: "image/png" }, { baseUrl: server.url });
    expect(created.headers.get("upload-expires")).toBeTruthy();
    const uploadId = created.url.split("/").pop()!;
    const half = Math.floor(png.length / 2);
    expect((await tusPatch(tenant.key, created.url, 0, png.subarray(0, half))).status).toBe(204);

    // Past the expiry: polled until the service says so, not slept for.
    const head = await waitFor(
      "the upload to expire",
      async () => {
        const h = await tusHead(tenant.key, created.url);
        return h.status !== 204 && h.status !== 200 ? h : undefined;
      },
      15_000 + expirySeconds * 1000,
    );
    expect(head.status).toBe(410);
    const late = await tusPatch(tenant.key, created.url, half, png.subarray(half));
    expect(late.status).toBe(410);
    expect(late.body.error.message).toMatch(/expired.*start a new upload/);

    // The next upload's creation sweeps expired ones off the disk.
    await tusCreate(tenant.key, png.length, { filename: "next.png", filetype: "image/png" }, { baseUrl: server.url });
    await waitFor(
      "the expired upload's files to be removed",
      async () => fs.readdirSync(path.join(dataDir, "tus")).every((f) => !f.startsWith(uploadId)) || undefined,
      10_000,
    );
    const call = api(tenant.key, server.url);
    expect((await call("/api/v1/uploads")).body.uploads).toEqual([]);
    expect((await call("/api/v1/creatives")).body.creatives).toEqual([]);
    expect(storedFiles(tenant.workspaceId, dataDir)).toEqual([]);
    await server.stop();
  }, 180_000);
});
