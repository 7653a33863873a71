// Import from public URLs: the webhook URL policy applies (the shared test server allows loopback,
// as WEBHOOKS_ALLOW_PRIVATE_URLS=1 does in development), redirects are followed and re-checked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, type Tenant } from "../helpers/fixtures";
import { waitFor } from "../helpers/library";
import { jpegImage, pngImage } from "../helpers/media-fixtures";
import { callTool, toolResult } from "../tools/helpers";
import { runWithCreatives } from "./helpers";
import { fileServer } from "./import-tool-calls";

let t: Tenant;
let files: Awaited<ReturnType<typeof fileServer>>;
let connectionId: string;

beforeAll(async () => {
  t = await createTenant();
  files = await fileServer({
    "/a.png": { type: "image/png", bytes: await pngImage(40, 30) },
    "/page.html": { type: "text/html", bytes: Buffer.from("<html></html>") },
    "/spring%20hero.png": { type: "image/png", bytes: await pngImage(41, 30) },
    "/50%off.png": { type: "image/png", bytes: await pngImage(42, 30) },
  });
  connectionId = (await toolResult(t.key, "connect_storage", { provider: "url" })).connection.id;
});
afterAll(async () => files?.close());

describe("public URL import", () => {
  it("imports a URL (and one that redirects to it) into a creative; a page or a 404 fails with the reason", async () => {
    const { run } = await toolResult(t.key, "import_files", { connectionId, paths: [`${files.url}/a.png`, `${files.url}/page.html`, `${files.url}/gone.png`] });
    const done = await runWithCreatives(t.key, run.id);
    expect(done.items.map((i: any) => [i.fileName, i.status])).toEqual([
      ["a.png", "imported"],
      ["page.html", "failed"],
      ["gone.png", "failed"],
    ]);
    expect(done.items[0].creativeId).toEqual(expect.any(String));
    expect(done.items[1].error).toMatch(/not a supported image or video/);
    expect(done.items[2].error).toMatch(/answered HTTP 404/);

    const moved = await runWithCreatives(t.key, (await toolResult(t.key, "import_files", { connectionId, paths: [`${files.url}/moved`] })).run.id);
    expect(moved.items[0]).toMatchObject({ status: "skipped" });
    expect(moved.items[0].error).toMatch(/Same bytes as "a.png"/);
  });

  it("starts the uploads' jobs once every file of the run has arrived, then completes the run", async () => {
    const quick = await jpegImage(44, 33);
    const held = await pngImage(64, 48);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = http.createServer(async (req, res) => {
      const bytes = req.url === "/quick.jpg" ? quick : req.url === "/held.png" ? held : null;
      if (!bytes) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "image/png", "content-length": bytes.length });
      if (req.url === "/quick.jpg") return void res.end(bytes);
      // Half the held file now, the rest when the test says so: its transfer stays open until then.
      res.write(bytes.subarray(0, bytes.length >> 1));
      await released;
      res.end(bytes.subarray(bytes.length >> 1));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { run } = await toolResult(t.key, "import_files", { connectionId, paths: [`${base}/quick.jpg`, `${base}/held.png`] });
      const midway = await waitFor("the quick file imported while the held one transfers", async () => {
        const [r] = (await toolResult(t.key, "list_import_runs", { runId: run.id })).runs;
        return r.items[0].status === "imported" && r.items[1].status === "transferring" ? r : undefined;
      });
      expect(midway).toMatchObject({ status: "running", transferredAt: null });
      // An upload job takes well under a second here; this one must not have started.
      await new Promise((r) => setTimeout(r, 1500));
      const waiting = (await api(t.key)(`/api/v1/uploads/${midway.items[0].uploadId}`)).body.upload;
      expect(waiting).toMatchObject({ status: "processing", creativeId: null });

      release();
      const done = await runWithCreatives(t.key, run.id);
      expect(done).toMatchObject({ status: "completed", importedCount: 2 });
      expect(Date.parse(done.transferredAt)).toBeGreaterThanOrEqual(Date.parse(midway.createdAt));
      expect(Date.parse(done.transferredAt)).toBeLessThanOrEqual(Date.parse(done.finishedAt));
      for (const item of done.items) {
        expect((await api(t.key)(`/api/v1/uploads/${item.uploadId}`)).body.upload).toMatchObject({ status: "completed", creativeId: item.creativeId });
      }
    } finally {
      release();
      server.closeAllConnections();
      server.close();
    }
  });

  it("names each file by its URL's last segment, decoded where the percent-encoding is valid and as written where not", async () => {
    const paths = [`${files.url}/spring%20hero.png`, `${files.url}/50%off.png`];
    const { run } = await toolResult(t.key, "import_files", { connectionId, paths });
    const done = await runWithCreatives(t.key, run.id);
    expect(done.items.map((i: any) => [i.fileName, i.status])).toEqual([
      ["spring hero.png", "imported"],
      ["50%off.png", "imported"],
    ]);
  });

  it("refuses what is not an http(s) URL, and browsing", async () => {
    const ftp = await callTool(t.key, "import_files", { connectionId, paths: ["ftp://example.com/a.png"] });
    expect([ftp.status, ftp.body.error.code]).toEqual([400, "invalid_input"]);
    expect(ftp.body.error.message).toMatch(/must start with https:\/\//);
    const browse = await callTool(t.key, "browse_storage", { connectionId });
    expect([browse.status, browse.body.error.code]).toEqual([400, "invalid_input"]);
  });
});
