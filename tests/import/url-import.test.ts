// Import from public URLs: the webhook URL policy applies (the shared test server allows loopback,
// as WEBHOOKS_ALLOW_PRIVATE_URLS=1 does in development), redirects are followed and re-checked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
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

  it("refuses what is not an http(s) URL, and browsing", async () => {
    const ftp = await callTool(t.key, "import_files", { connectionId, paths: ["ftp://example.com/a.png"] });
    expect([ftp.status, ftp.body.error.code]).toEqual([400, "invalid_input"]);
    expect(ftp.body.error.message).toMatch(/must start with https:\/\//);
    const browse = await callTool(t.key, "browse_storage", { connectionId });
    expect([browse.status, browse.body.error.code]).toEqual([400, "invalid_input"]);
  });
});
