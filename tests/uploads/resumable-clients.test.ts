import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Adloom } from "@adloom/sdk";
import * as tus from "tus-js-client";
import { afterEach, describe, expect, inject, it } from "vitest";
import { runAdloom } from "../helpers/cli";
import { createTenant } from "../helpers/fixtures";
import { finishedUpload } from "../helpers/library";
import { storedFiles } from "./helpers";
import { largeVideo, sha256 } from "./tus";

/**
 * A TCP proxy in front of the test server that drops the connection of the first tus PATCH once
 * `cutAfterBytes` of it have passed: the dropped connection a client must survive.
 */
async function cuttingProxy(cutAfterBytes: number): Promise<{ url: string; patches: () => number; close: () => Promise<void> }> {
  const target = new URL(inject("baseUrl"));
  let patches = 0;
  let cut = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let inPatch = false;
    let passed = 0;
    client.on("data", (chunk: Buffer) => {
      if (chunk.includes("PATCH /api/v1/uploads/tus/")) {
        patches++;
        inPatch = !cut;
      }
      if (inPatch) {
        passed += chunk.length;
        if (passed > cutAfterBytes) {
          cut = true;
          inPatch = false;
          client.destroy();
          upstream.destroy();
          return;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    patches: () => patches,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("resumable uploads from the client library and the CLI", () => {
  it("the SDK's createResumable survives a connection dropped at 50% and the stored bytes are identical", async () => {
    const tenant = await createTenant();
    const video = largeVideo();
    const proxy = await cuttingProxy(Math.floor(video.length / 2));
    cleanups.push(proxy.close);
    const client = new Adloom({ apiKey: tenant.key, baseUrl: proxy.url });
    const progress: number[] = [];
    const created = await client.uploads.createResumable(
      { data: new Uint8Array(video), name: "sdk_hook_9x16.mp4", contentType: "video/mp4" },
      { tus, retryDelays: [100, 500, 1000], onProgress: (sent) => progress.push(sent) },
    );
    expect(created).toEqual({ id: expect.stringMatching(/^upl_/), status: "processing" });
    expect(proxy.patches()).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toBe(video.length);

    const upload = await finishedUpload(tenant.key, created.id, 60_000);
    expect(upload).toMatchObject({ status: "completed", fileName: "sdk_hook_9x16.mp4", sizeBytes: video.length });
    const stored = storedFiles(tenant.workspaceId).find((f) => f.endsWith(`/uploads/${created.id}`))!;
    expect(sha256(fs.readFileSync(stored))).toBe(sha256(video));
  }, 120_000);

  it("the SDK's upload() sends small files multipart and large ones resumably, in order", async () => {
    const tenant = await createTenant();
    const video = largeVideo();
    const client = new Adloom({ apiKey: tenant.key, baseUrl: inject("baseUrl") });
    const small = (await import("./helpers")).makeImage("png");
    const result = await client.uploads.upload(
      [
        { data: await small, name: "small.png" },
        { data: new Uint8Array(video), name: "big.mp4" },
      ],
      { tus, resumableAboveBytes: 1024 * 1024 },
    );
    expect(result).toHaveLength(2);
    const names = await Promise.all(result.map(async (r) => (await finishedUpload(tenant.key, r.id, 60_000)).fileName));
    expect(names).toEqual(["small.png", "big.mp4"]);
  }, 120_000);

  it("adloom uploads push --resumable survives a dropped connection", async () => {
    const tenant = await createTenant();
    const video = largeVideo();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-cli-tus-"));
    const file = path.join(dir, "cli_hook_4x5.mp4");
    fs.writeFileSync(file, video);
    const proxy = await cuttingProxy(Math.floor(video.length / 2));
    cleanups.push(proxy.close);
    const run = await runAdloom(["uploads", "push", file, "--resumable", "--json"], {
      ADLOOM_API_KEY: tenant.key,
      ADLOOM_BASE_URL: proxy.url,
      ADLOOM_CONFIG_DIR: dir,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    const id = run.json.uploads[0].id;
    expect(proxy.patches()).toBeGreaterThanOrEqual(2);
    const upload = await finishedUpload(tenant.key, id, 60_000);
    expect(upload).toMatchObject({ status: "completed", fileName: "cli_hook_4x5.mp4" });
    const stored = storedFiles(tenant.workspaceId).find((f) => f.endsWith(`/uploads/${id}`))!;
    expect(sha256(fs.readFileSync(stored))).toBe(sha256(video));
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
