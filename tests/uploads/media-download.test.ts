import fs from "node:fs/promises";
import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { admin, api, createMemberKey, createTenant, type Tenant } from "../helpers/fixtures";
import { until } from "../helpers/wait";
import { filePart, makeImage, makeVideo, postUploads, waitForUpload } from "./helpers";

interface Creative {
  id: string;
  fileName: string;
  mediaPath: string | null;
  previewPath?: string | null;
}

/** Uploads one file and waits for its creative to be ready. */
async function readyCreative(
  tenant: Tenant,
  fileName: string,
  contentType: string,
  data: Buffer,
  fields: { field: string; value: string }[] = [],
): Promise<Creative> {
  const res = await postUploads(tenant.key, [...fields, filePart(fileName, contentType, data)]);
  expect(res.status).toBe(201);
  const call = api(tenant.key);
  expect((await waitForUpload(call, res.body.uploads[0].id)).status).toBe("completed");
  const deadline = Date.now() + 45_000;
  for (;;) {
    const list = await call("/api/v1/creatives");
    const creative = (list.body.creatives as Creative[]).find((c) => c.fileName === fileName);
    if (creative?.mediaPath && (!contentType.startsWith("video/") || creative.previewPath)) return creative;
    if (Date.now() > deadline) throw new Error(`creative ${fileName} not ready: ${JSON.stringify(creative)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** How many descriptors the processes on this machine hold open on the workspace's stored files (Linux /proc). */
async function openMediaFiles(workspaceId: string): Promise<number> {
  const root = inject("dataDir");
  let open = 0;
  for (const pid of await fs.readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const fds = await fs.readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await fs.readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
      if (target.startsWith(root) && target.includes(`/${workspaceId}/`)) open++;
    }
  }
  return open;
}

/** Sends a GET and resets the connection as soon as it is written: the client is gone before the answer starts. */
function abortedGet(key: string, path: string, afterMs = 0): Promise<void> {
  const url = new URL(inject("baseUrl"));
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\n\r\n`, () => {
        setTimeout(() => {
          socket.resetAndDestroy();
          resolve();
        }, afterMs);
      });
    });
    socket.on("error", reject);
  });
}

function get(key: string | null, path: string, headers: Record<string, string> = {}) {
  return fetch(inject("baseUrl") + path, { headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers } });
}

describe("GET /api/media/...", () => {
  let tenant: Tenant;
  let png: Buffer;
  let mp4: Buffer;
  let image: Creative;
  let video: Creative;

  beforeAll(async () => {
    tenant = await createTenant();
    png = await makeImage("png", { width: 64, height: 48 });
    mp4 = makeVideo("mp4");
    image = await readyCreative(tenant, "poster.png", "image/png", png);
    video = await readyCreative(tenant, "clip.mp4", "video/mp4", mp4);
  }, 120_000);

  it("serves the whole file with type, length and validators", async () => {
    expect(image.mediaPath).toBe(`/api/media/${image.id}`);
    const res = await get(tenant.key, image.mediaPath!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(png.length));
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toMatch(/^"/);
    expect(res.headers.get("last-modified")).toMatch(/GMT$/);
    expect(res.headers.get("content-disposition")).toBeNull();
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);

    const head = await fetch(inject("baseUrl") + image.mediaPath!, { method: "HEAD", headers: { Authorization: `Bearer ${tenant.key}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(png.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const post = await fetch(inject("baseUrl") + image.mediaPath!, { method: "POST", headers: { Authorization: `Bearer ${tenant.key}` } });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(post.headers.get("x-request-id")).toMatch(/^req_/);
    expect((await post.json()).error.code).toBe("method_not_allowed");
  });

  it("lets any key of the workspace download, whatever its scopes", async () => {
    const viewer = await createMemberKey(tenant, { role: "viewer" });
    const scoped = await createMemberKey(tenant, { role: "editor", scopes: ["comment"] });
    for (const key of [viewer.key, scoped.key]) {
      const res = await get(key, image.mediaPath!);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const anonymous = await get(null, image.mediaPath!);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("unauthorized");
  });

  it("answers byte ranges with 206 so videos can seek", async () => {
    const res = await get(tenant.key, video.mediaPath!, { Range: "bytes=100-199" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-range")).toBe(`bytes 100-199/${mp4.length}`);
    expect(res.headers.get("content-length")).toBe("100");
    expect(Buffer.from(await res.arrayBuffer()).equals(mp4.subarray(100, 200))).toBe(true);

    const open = await get(tenant.key, video.mediaPath!, { Range: `bytes=${mp4.length - 10}-` });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(mp4.subarray(mp4.length - 10))).toBe(true);

    const suffix = await get(tenant.key, video.mediaPath!, { Range: "bytes=-5" });
    expect(suffix.headers.get("content-range")).toBe(`bytes ${mp4.length - 5}-${mp4.length - 1}/${mp4.length}`);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(mp4.subarray(mp4.length - 5))).toBe(true);

    const past = await get(tenant.key, video.mediaPath!, { Range: `bytes=10-${mp4.length + 1000}` });
    expect(past.status).toBe(206);
    expect(past.headers.get("content-range")).toBe(`bytes 10-${mp4.length - 1}/${mp4.length}`);
    await past.arrayBuffer();
  });

  it("answers 416 for a range past the end", async () => {
    const res = await get(tenant.key, video.mediaPath!, { Range: `bytes=${mp4.length}-` });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${mp4.length}`);
    expect((await res.json()).error.message).toMatch(/Range not satisfiable/);
  });

  it("ignores a range when If-Range names another version", async () => {
    const res = await get(tenant.key, video.mediaPath!, { Range: "bytes=0-9", "If-Range": '"some-other-version"' });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).length).toBe(mp4.length);
  });

  it("answers 304 to If-None-Match and If-Modified-Since", async () => {
    const first = await get(tenant.key, image.mediaPath!);
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    const byTag = await get(tenant.key, image.mediaPath!, { "If-None-Match": `"other", ${etag}` });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get("etag")).toBe(etag);
    const byDate = await get(tenant.key, image.mediaPath!, { "If-Modified-Since": first.headers.get("last-modified")! });
    expect(byDate.status).toBe(304);
    const stale = await get(tenant.key, image.mediaPath!, { "If-Modified-Since": new Date(0).toUTCString() });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const changed = await get(tenant.key, image.mediaPath!, { "If-None-Match": '"not-it"' });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });

  it("answers ?download= as an attachment with a safely encoded name", async () => {
    const cases: { name: string; ascii: string; star: string }[] = [
      { name: "summer.png", ascii: "summer.png", star: "summer.png" },
      { name: 'my "best" ad.png', ascii: "my _best_ ad.png", star: "my%20%22best%22%20ad.png" },
      { name: "Été – 広告.png", ascii: "_t_ _ __.png", star: "%C3%89t%C3%A9%20%E2%80%93%20%E5%BA%83%E5%91%8A.png" },
      { name: "evil\r\nSet-Cookie: x=1.png", ascii: "evilSet-Cookie: x=1.png", star: "evilSet-Cookie%3A%20x%3D1.png" },
      { name: "../../etc/passwd", ascii: ".._.._etc_passwd", star: ".._.._etc_passwd" },
    ];
    for (const c of cases) {
      const res = await get(tenant.key, `${image.mediaPath}?download=${encodeURIComponent(c.name)}`);
      expect(res.status, c.name).toBe(200);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${c.ascii}"; filename*=UTF-8''${c.star}`);
      await res.arrayBuffer();
    }
    const fallback = await get(tenant.key, `${image.mediaPath}?download=`);
    expect(fallback.headers.get("content-disposition")).toBe(`attachment; filename="poster.png"; filename*=UTF-8''poster.png`);
    await fallback.arrayBuffer();
  });

  it("serves a video's 720p preview as MP4 with ranges", async () => {
    expect(video.previewPath).toBe(`/api/media/${video.id}/preview`);
    const res = await get(tenant.key, video.previewPath!, { Range: "bytes=0-3" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await res.arrayBuffer()).length).toBe(4);
    const none = await get(tenant.key, `/api/media/${image.id}/preview`);
    expect(none.status).toBe(404);
    expect((await none.json()).error.code).toBe("not_found");
  });

  it.skipIf(process.platform !== "linux")("closes the file of a client that went away before the answer started", async () => {
    // Bigger than what a file stream reads ahead on its own (a small file is read whole and closed anyway).
    const big = Buffer.concat([png, Buffer.alloc(4 * 1024 * 1024)]);
    const large = await readyCreative(tenant, "large.png", "image/png", big);
    await Promise.all(Array.from({ length: 16 }, (_, i) => abortedGet(tenant.key, large.mediaPath!, i * 3)));
    // A request sent after them has been answered: they were served (or refused) before it.
    const after = await get(tenant.key, large.mediaPath!);
    expect(Buffer.from(await after.arrayBuffer()).length).toBe(big.length);
    await until(async () => (await openMediaFiles(tenant.workspaceId)) === 0, "no file left open by the aborted downloads", 5_000);
  });

  it("is a 404 for another workspace's key, an unknown id, and a folder-scoped member outside the folder", async () => {
    const stranger = await createTenant();
    for (const path of [image.mediaPath!, video.previewPath!, "/api/media/crv_unknown"]) {
      const res = await get(stranger.key, path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
    const folder = (await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Only"])).folderId;
    const member = await createMemberKey(tenant, { role: "editor", folders: [folder] });
    const outside = await get(member.key, image.mediaPath!);
    expect(outside.status).toBe(404);
    await outside.arrayBuffer();

    const filed = await readyCreative(tenant, "filed.jpg", "image/jpeg", await makeImage("jpeg"), [{ field: "folderId", value: folder }]);
    const inside = await get(member.key, filed.mediaPath!);
    expect(inside.status).toBe(200);
    expect(inside.headers.get("content-type")).toBe("image/jpeg");
    await inside.arrayBuffer();
  });
});
