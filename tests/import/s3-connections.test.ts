// An S3 connection's files reuse its connections to the endpoint (one client per connection, kept
// between files), seen from a TCP proxy in front of the S3-compatible server that counts them.
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
import { s3ConnectArgs, startS3Fake, type S3Fake } from "../helpers/s3-fake";
import { toolResult } from "../tools/helpers";
import { runWithCreatives } from "./helpers";

const FILES = 12;
let s3: S3Fake;
let proxy: net.Server;
let t: Tenant;
let accepted = 0;

beforeAll(async () => {
  s3 = await startS3Fake();
  for (let i = 0; i < FILES; i++) await s3.put(`batch/file-${i}.png`, await pngImage(20 + i, 10), "image/png");
  const upstream = new URL(s3.endpoint);
  proxy = net.createServer((client) => {
    accepted++;
    const server = net.connect(Number(upstream.port), upstream.hostname);
    client.pipe(server).pipe(client);
    client.on("error", () => server.destroy());
    server.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  t = await createTenant();
}, 60_000);

afterAll(async () => {
  proxy?.close();
  await s3?.close();
});

it("imports a bucket's files over a few kept connections, not one per file", async () => {
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const { connection } = await toolResult(t.key, "connect_storage", s3ConnectArgs(s3, { endpoint }));
  const { run } = await toolResult(t.key, "import_files", { connectionId: connection.id, paths: ["batch/"] });
  const done = await runWithCreatives(t.key, run.id);
  expect(done).toMatchObject({ status: "completed", importedCount: FILES });
  // The check at connect time, the listing, and at most one per transfer running at once (four).
  expect(accepted).toBeGreaterThan(0);
  expect(accepted).toBeLessThanOrEqual(6);
});
