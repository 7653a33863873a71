// A CREDENTIALS_KEY rotation covers storage connections: `admin credentials reseal` seals their
// secrets with the new key, after which the old key can be dropped and the connection still works.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, api, createTenant, type Tenant } from "../helpers/fixtures";
import { pngImage } from "../helpers/media-fixtures";
import { s3ConnectArgs, startS3Fake, type S3Fake } from "../helpers/s3-fake";
import { migratedDataDir, startServer, type TestServer } from "../helpers/server";

const NEW_KEY = "rotated-storage-credentials-key-0123456789abcdef";
let s3: S3Fake;
let server: TestServer | undefined;
let tenant: Tenant;
const dataDir = await migratedDataDir("import-credentials");

async function restart(env: Record<string, string> = {}) {
  await server?.stop();
  server = await startServer({ dataDir, env: { LEADS_POLL: "0", ...env } });
}
const tool = (name: string, args: unknown) => api(tenant.key, server!.url)(`/api/v1/tools/${name}`, { method: "POST", json: args });
const reseal = () => admin<any>(["credentials", "reseal"], dataDir);

beforeAll(async () => {
  s3 = await startS3Fake();
  await s3.put("rotation/hero.png", await pngImage(64, 48), "image/png");
  await restart();
  tenant = await createTenant({ dataDir });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await s3?.close();
});

describe("credentials reseal and storage connections", () => {
  it("reseals a storage connection's secrets with the new key; the old key is then not needed", async () => {
    const connect = await tool("connect_storage", s3ConnectArgs(s3));
    expect(connect.status).toBe(200);
    const connectionId = connect.body.result.connection.id;
    const oldKey = fs.readFileSync(path.join(dataDir, "secrets", "credentials-key"), "utf8").trim();
    expect(await reseal()).toMatchObject({ ok: true, storageConnections: { checked: 1, resealed: 0, unreadable: [] } });

    // The new key alone cannot open what the old one sealed: the connection answers not_connected (no 5xx).
    await restart({ CREDENTIALS_KEY: NEW_KEY });
    const locked = await tool("browse_storage", { connectionId, path: "rotation/" });
    expect(locked.status).toBe(400);
    expect(locked.body.error).toMatchObject({ code: "not_connected", message: expect.stringMatching(/CREDENTIALS_KEY_PREVIOUS/) });

    await restart({ CREDENTIALS_KEY: NEW_KEY, CREDENTIALS_KEY_PREVIOUS: oldKey });
    const resealed = await reseal();
    expect(resealed).toMatchObject({ ok: true, unreadable: [], storageConnections: { checked: 1, resealed: 1, unreadable: [] } });
    expect(resealed.checked).toBeGreaterThanOrEqual(1);

    await restart({ CREDENTIALS_KEY: NEW_KEY });
    const browse = await tool("browse_storage", { connectionId, path: "rotation/" });
    expect(browse.status).toBe(200);
    expect(browse.body.result.entries.map((e: any) => e.id)).toEqual(["rotation/hero.png"]);
    const started = await tool("import_files", { connectionId, paths: ["rotation/hero.png"] });
    expect(started.status).toBe(200);
    const runId = started.body.result.run.id;
    let run: any;
    for (let i = 0; i < 300; i++) {
      [run] = (await tool("list_import_runs", { runId })).body.result.runs;
      if (run.status !== "running") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(run).toMatchObject({ status: "completed", importedCount: 1, failedCount: 0 });
    expect(await reseal()).toMatchObject({ ok: true, storageConnections: { checked: 1, resealed: 0, unreadable: [] } });
  }, 240_000);
});
