import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { admin, api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { waitFor } from "../helpers/library";
import { mp4Video } from "../helpers/media-fixtures";
import { toolResult } from "../tools/helpers";
import { filePart, postUploads, storedFiles, waitForUpload } from "../uploads/helpers";

interface Thumbnails {
  small: string;
  large: string;
}
interface Creative {
  id: string;
  fileName: string;
  kind: "image" | "video";
  mediaPath: string | null;
  thumbnails?: Thumbnails | null;
}

const get = (key: string | null, p: string, headers: Record<string, string> = {}) =>
  fetch(inject("baseUrl") + p, { headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers } });

async function upload(tenant: Tenant, fileName: string, contentType: string, data: Buffer): Promise<Creative> {
  const res = await postUploads(tenant.key, [filePart(fileName, contentType, data)]);
  expect(res.status).toBe(201);
  const call = api(tenant.key);
  expect((await waitForUpload(call, res.body.uploads[0].id, 60_000)).status).toBe("completed");
  return waitFor(
    `creative ${fileName}`,
    async () => ((await call("/api/v1/creatives")).body.creatives as Creative[]).find((c) => c.fileName === fileName && c.mediaPath),
    60_000,
  );
}

const thumbFiles = (workspaceId: string, creativeId: string) =>
  storedFiles(workspaceId).filter((f) => f.includes(`${path.sep}${creativeId}${path.sep}thumb-`) && f.endsWith(".webp"));

async function webpSize(res: Response): Promise<{ width: number; height: number; format: string }> {
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return { width: meta.width!, height: meta.height!, format: meta.format! };
}

describe("creative thumbnails (WebP renditions in two widths, video posters)", () => {
  let tenant: Tenant;
  let photo: Creative;
  let clip: Creative;

  beforeAll(async () => {
    tenant = await createTenant();
    // A phone-sized photo (4000 × 3000): its thumbnails must be far smaller than it.
    const jpeg = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 200, g: 90, b: 40 } } })
      .jpeg({ quality: 95 })
      .toBuffer();
    photo = await upload(tenant, "phone.jpg", "image/jpeg", jpeg);
    clip = await upload(tenant, "clip.mp4", "video/mp4", mp4Video(640, 360, 2));
  }, 180_000);

  it("are rendered by the upload job next to the media, before anyone asks", async () => {
    await waitFor("photo thumbnails", async () => thumbFiles(tenant.workspaceId, photo.id).length === 2 || undefined, 60_000);
    await waitFor("video poster thumbnails", async () => thumbFiles(tenant.workspaceId, clip.id).length === 2 || undefined, 60_000);
  });

  it("serves 320 and 960 px WebP, never the original, with year-long immutable caching and 304s", async () => {
    expect(photo.thumbnails).toEqual({
      small: expect.stringMatching(new RegExp(`^/api/media/${photo.id}/thumbnails/320/[0-9a-f]{24}$`)),
      large: expect.stringMatching(new RegExp(`^/api/media/${photo.id}/thumbnails/960/[0-9a-f]{24}$`)),
    });
    const small = await get(tenant.key, photo.thumbnails!.small);
    expect(small.status).toBe(200);
    expect(small.headers.get("content-type")).toBe("image/webp");
    expect(small.headers.get("cache-control")).toBe("private, max-age=31536000, immutable, no-transform");
    const etag = small.headers.get("etag")!;
    expect(await webpSize(small)).toEqual({ width: 320, height: 240, format: "webp" });

    const large = await get(tenant.key, photo.thumbnails!.large);
    expect(Number(large.headers.get("content-length"))).toBeLessThan(100_000);
    expect(await webpSize(large)).toEqual({ width: 960, height: 720, format: "webp" });

    const again = await get(tenant.key, photo.thumbnails!.small, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    // The original keeps revalidating: only content-addressed renditions are immutable.
    expect((await get(tenant.key, photo.mediaPath!)).headers.get("cache-control")).toBe("private, no-cache, no-transform");
  });

  it("gives a video a poster frame in both widths, never wider than the video", async () => {
    const small = await get(tenant.key, clip.thumbnails!.small);
    expect(small.status).toBe(200);
    expect(await webpSize(small)).toEqual({ width: 320, height: 180, format: "webp" });
    const large = await get(tenant.key, clip.thumbnails!.large);
    expect(await webpSize(large)).toEqual({ width: 640, height: 360, format: "webp" });
  });

  it("answers only the creative's own workspace, and only for the current tag and known widths", async () => {
    const other = await createTenant();
    for (const p of [photo.thumbnails!.small, clip.thumbnails!.large]) {
      const res = await get(other.key, p);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
      expect((await get(null, p)).status).toBe(401);
    }
    const viewer = await createMemberKey(tenant, { role: "viewer" });
    expect((await get(viewer.key, photo.thumbnails!.small)).status).toBe(200);

    const wrongTag = await get(tenant.key, `/api/media/${photo.id}/thumbnails/320/${"0".repeat(24)}`);
    expect(wrongTag.status).toBe(404);
    const tag = photo.thumbnails!.small.split("/").pop();
    const badWidth = await get(tenant.key, `/api/media/${photo.id}/thumbnails/500/${tag}`);
    expect(badWidth.status).toBe(400);
    expect((await badWidth.json()).error).toMatchObject({ code: "invalid_request", message: expect.stringContaining("320, 960") });
    expect((await get(tenant.key, `/api/media/${photo.id}/thumbnails/320/not-a-tag`)).status).toBe(400);
  });

  it("a new version gets new thumbnail paths; the earlier version keeps its own; deleting removes them all", async () => {
    const v2 = await sharp({ create: { width: 1200, height: 600, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    await toolResult(tenant.key, "add_creative_version", { creativeId: photo.id, file: { fileName: "v2.png", contentBase64: v2.toString("base64") } });
    const { creative } = await toolResult(tenant.key, "get_creative", { id: photo.id });
    expect(creative.thumbnails.small).not.toBe(photo.thumbnails!.small);
    expect(await webpSize(await get(tenant.key, creative.thumbnails.large))).toEqual({ width: 960, height: 480, format: "webp" });
    // The compare view shows version 1 by its own (still valid, still immutable) thumbnails.
    const { versions } = await toolResult(tenant.key, "list_creative_versions", { creativeId: photo.id });
    expect(versions.map((v: { thumbnails: Thumbnails }) => v.thumbnails.small)).toEqual([photo.thumbnails!.small, creative.thumbnails.small]);
    expect((await get(tenant.key, photo.thumbnails!.small)).status).toBe(200);

    expect(thumbFiles(tenant.workspaceId, photo.id)).toHaveLength(4);
    await toolResult(tenant.key, "delete_creatives", { ids: [photo.id] });
    expect(thumbFiles(tenant.workspaceId, photo.id)).toHaveLength(0);
  });

  it("backfills creatives made before thumbnails: on first request, or all at once by the operator", async () => {
    const seeded = await createTenant();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-thumbs-"));
    const file = path.join(dir, "big.jpg");
    fs.writeFileSync(
      file,
      await sharp({ create: { width: 2400, height: 1600, channels: 3, background: "#884422" } })
        .jpeg()
        .toBuffer(),
    );
    try {
      await admin(["library", "seed", "--workspace", seeded.workspaceId, "--count", "3", "--from", file]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const creatives = (await api(seeded.key)("/api/v1/creatives")).body.creatives as Creative[];
    expect(creatives).toHaveLength(3);
    expect(creatives.flatMap((c) => thumbFiles(seeded.workspaceId, c.id))).toHaveLength(0);

    // Lazily: the first request renders them.
    const first = await get(seeded.key, creatives[0]!.thumbnails!.small);
    expect(first.status).toBe(200);
    expect(await webpSize(first)).toEqual({ width: 320, height: 213, format: "webp" });

    const report = await admin<{ checked: number; ready: number; failed: number }>(["creatives", "thumbnails", "--workspace", seeded.workspaceId]);
    expect(report).toEqual({ checked: 3, ready: 3, failed: 0 });
    expect(creatives.flatMap((c) => thumbFiles(seeded.workspaceId, c.id))).toHaveLength(6);
  });
});
