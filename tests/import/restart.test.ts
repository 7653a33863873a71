// kill -9 in the middle of an import: after the restart every file ends imported, the file that was
// mid-transfer is read again from its start, and the files finished before the crash are not read again.
// And kill -9 in the run's follow-up (after every file arrived, before the run completed): it resumes.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { currentOwner } from "@adloom/pglite-driver";
import { afterAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { api, createTenant } from "../helpers/fixtures";
import { freshDatabaseUrl } from "../helpers/fresh-database";
import { waitFor } from "../helpers/library";
import { jpegImage, pngImage } from "../helpers/media-fixtures";
import { migratedDataDir, startServer, tempDataDir, type TestServer } from "../helpers/server";

const servers: TestServer[] = [];
let files: http.Server | undefined;
const fileServers: http.Server[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
  files?.close();
  for (const f of fileServers) f.close();
});

async function serveFiles(bytesOf: (name: string) => Buffer | undefined): Promise<string> {
  const server = http.createServer((req, res) => {
    const bytes = bytesOf(req.url ?? "");
    if (!bytes) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/png", "content-length": bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fileServers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A server on a fresh database, a tenant and a URL storage connection; crashAndComplete() kills the
 * server (-9), starts a new one on the same data and waits for the run to complete with its creatives.
 */
async function crashableImport(label: string) {
  const databaseUrl = await freshDatabaseUrl(label);
  const dataDir = databaseUrl ? tempDataDir(label) : await migratedDataDir(label);
  let server = await startServer({ dataDir, databaseUrl });
  servers.push(server);
  const tenant = await createTenant({ dataDir });
  const request = (route: string) => api(tenant.key, server.url)(route).then((r) => r.body);
  const call = async (name: string, args: unknown) => {
    const r = await api(tenant.key, server.url)(`/api/v1/tools/${name}`, { method: "POST", json: args });
    if (r.status !== 200) throw new Error(`${name}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.result;
  };
  const { connection } = await call("connect_storage", { provider: "url" });
  return {
    connectionId: connection.id as string,
    call,
    request,
    async crashAndComplete(runId: string): Promise<any> {
      await server.kill();
      await waitFor("the killed server's database lock to be released", async () => currentOwner(path.join(dataDir, "db")) === null || undefined, 15_000);
      server = await startServer({ dataDir, databaseUrl });
      servers.push(server);
      return waitFor(
        "the run to complete after the restart",
        async () => {
          const [r] = (await call("list_import_runs", { runId })).runs;
          return r.status === "completed" && r.items.every((i: any) => i.creativeId) ? r : undefined;
        },
        120_000,
      );
    },
    stop: () => server.stop(),
  };
}

describe("import jobs across a server crash", () => {
  it("resumes: the interrupted file is fetched again, finished files are not, and the run completes", async () => {
    const slow = Buffer.concat([await pngImage(300, 200), Buffer.alloc(0)]);
    const quick = await jpegImage(50, 50);
    const requests: Record<string, number> = {};
    files = http.createServer(async (req, res) => {
      const name = req.url ?? "";
      requests[name] = (requests[name] ?? 0) + 1;
      const bytes = name === "/slow.png" ? slow : name === "/quick.jpg" ? quick : null;
      if (!bytes) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "image/png", "content-length": bytes.length });
      if (name !== "/slow.png" || requests[name]! > 1) return void res.end(bytes);
      // The first time: trickle the file out over ~6 s, so the crash finds it mid-transfer.
      const step = Math.ceil(bytes.length / 30);
      for (let i = 0; i < bytes.length; i += step) {
        if (res.destroyed) return;
        res.write(bytes.subarray(i, i + step));
        await new Promise((r) => setTimeout(r, 200));
      }
      res.end();
    });
    await new Promise<void>((resolve) => files!.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

    const scenario = await crashableImport("import_restart");
    const { run } = await scenario.call("import_files", { connectionId: scenario.connectionId, paths: [`${base}/quick.jpg`, `${base}/slow.png`] });

    await waitFor("the quick file imported and the slow one under way", async () => {
      const [r] = (await scenario.call("list_import_runs", { runId: run.id })).runs;
      return r.items[0].status === "imported" && r.items[1].status === "transferring" ? r : undefined;
    });
    const done = await scenario.crashAndComplete(run.id);
    expect(done).toMatchObject({ importedCount: 2, failedCount: 0 });
    expect(done.items.map((i: any) => [i.fileName, i.status, i.bytesDone])).toEqual([
      ["quick.jpg", "imported", quick.length],
      ["slow.png", "imported", slow.length],
    ]);
    expect(requests).toEqual({ "/quick.jpg": 1, "/slow.png": 2 });
    const { creatives } = await scenario.request("/api/v1/creatives");
    expect(creatives.map((c: any) => c.fileName).sort()).toEqual(["quick.jpg", "slow.png"]);
    await scenario.stop();
  }, 240_000);

  it("resumes a run killed in its follow-up: every upload is pushed and filed once, and the run completes", async () => {
    // 20 flat 2800 px PNGs: small to send, ~35 ms each to hash, so the follow-up's near-duplicate step lasts ~0.7 s.
    const images = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sharp({ create: { width: 2800, height: 2800, channels: 3, background: { r: i * 12, g: 100, b: 255 - i * 12 } } })
          .png()
          .toBuffer(),
      ),
    );
    const base = await serveFiles((name) => images[Number(/^\/img-(\d+)\.png$/.exec(name)?.[1] ?? NaN)]);
    const scenario = await crashableImport("import_finish_restart");
    const paths = images.map((_, i) => `${base}/img-${i}.png`);
    const { run } = await scenario.call("import_files", { connectionId: scenario.connectionId, paths });

    for (;;) {
      const [r] = (await scenario.call("list_import_runs", { limit: 1 })).runs;
      if (r.status !== "running") throw new Error(`the run ended (${r.status}) before its follow-up could be interrupted`);
      if (r.transferredAt) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const done = await scenario.crashAndComplete(run.id);
    expect(done).toMatchObject({ importedCount: 20, failedCount: 0, skippedCount: 0 });
    const uploads = await Promise.all(done.items.map(async (i: any) => (await scenario.request(`/api/v1/uploads/${i.uploadId}`)).upload));
    expect(uploads.map((u: any) => u.status)).toEqual(Array(20).fill("completed"));
    const { creatives } = await scenario.request("/api/v1/creatives?limit=100");
    expect(creatives.map((c: any) => c.fileName).sort()).toEqual(images.map((_, i) => `img-${i}.png`).sort());
    await scenario.stop();
  }, 240_000);
});
