// A provider that stops sending in the middle of a file: the item fails with the reason once nothing has come
// for IMPORT_DOWNLOAD_IDLE_TIMEOUT_MS, nothing of the file is kept, the run completes, and the job's slot serves
// the next import. Before, such a transfer held one of the four import slots (shared by every workspace) for ever.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { api, createTenant } from "../helpers/fixtures";
import { waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer | undefined;
let source: http.Server | undefined;
afterAll(async () => {
  await server?.stop();
  source?.closeAllConnections();
  source?.close();
});

/** Every file under the directory, recursively (empty when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

it("fails a file whose provider stops sending, keeps none of it, completes the run, and imports the next file", async () => {
  const png = await pngImage(240, 160);
  source = http.createServer((req, res) => {
    if (req.url !== "/stalls.png" && req.url !== "/arrives.png") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/png", "content-length": png.length });
    if (req.url === "/arrives.png") return void res.end(png);
    res.write(png.subarray(0, png.length >> 1)); // and then nothing, with the connection open
  });
  await new Promise<void>((resolve) => source!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;

  server = await startServer({ env: { IMPORT_DOWNLOAD_IDLE_TIMEOUT_MS: "1500" } });
  const tenant = await createTenant({ dataDir: server.dataDir });
  const call = async (name: string, args: unknown) => {
    const r = await api(tenant.key, server!.url)(`/api/v1/tools/${name}`, { method: "POST", json: args });
    if (r.status !== 200) throw new Error(`${name}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.result;
  };
  const finished = (runId: string) =>
    waitFor(
      "the run to complete",
      async () => {
        const [r] = (await call("list_import_runs", { runId })).runs;
        return r.status === "completed" ? r : undefined;
      },
      60_000,
    );
  const { connection } = await call("connect_storage", { provider: "url" });

  const stalled = await finished((await call("import_files", { connectionId: connection.id, paths: [`${base}/stalls.png`] })).run.id);
  expect(stalled).toMatchObject({ importedCount: 0, failedCount: 1 });
  expect(stalled.items[0]).toMatchObject({ status: "failed", uploadId: null, creativeId: null });
  expect(stalled.items[0].error).toBe("The file stopped arriving: the provider sent nothing for 1.5 seconds");
  const uploads = path.join(server.dataDir, "media", tenant.workspaceId, "uploads");
  expect(filesUnder(uploads)).toEqual([]);

  const arrived = await finished((await call("import_files", { connectionId: connection.id, paths: [`${base}/arrives.png`] })).run.id);
  expect(arrived.items.map((i: any) => [i.fileName, i.status])).toEqual([["arrives.png", "imported"]]);
  expect(filesUnder(uploads)).toHaveLength(1);
}, 120_000);
