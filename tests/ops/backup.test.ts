import { execFile, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signIn, sessionFetch } from "../dashboard/session";
import { api, admin, createTenant } from "../helpers/fixtures";
import { allCreatives, creativeWhen, finishedUpload, uploadIds, waitFor } from "../helpers/library";
import { pngImage } from "../helpers/media-fixtures";
import { freePort } from "../helpers/ports";
import { acquirePgliteLock, currentOwner, DatabaseBusyError, lockFilePath } from "@adloom/pglite-driver/lock";
import { listTar, readEntry, TarWriter } from "../../lib/backup/tar";
import { migratedDataDir, startServer, tempDataDir, type TestServer } from "../helpers/server";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * `npm run --silent admin -- ...` exactly as an operator types it, on the embedded database of `dataDir`.
 * Asynchronous: a blocked event loop would keep the test's pooled connections past the server's keep-alive.
 */
function adminCli(args: string[], dataDir: string): Promise<{ status: number; json: any; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, NODE_ENV: "production" };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "admin", "--", ...args],
      { cwd: ROOT, env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 180_000 },
      (err, stdout, stderr) => {
        const lines = stdout.trim().split("\n");
        resolve({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, json: JSON.parse(lines[lines.length - 1] || "null"), stderr });
      },
    );
  });
}

/** `npm start` on `dataDir` (built already), for a start that is expected to refuse: its exit code and stderr. */
async function startOn(dataDir: string): Promise<{ status: number | null; stderr: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    ADLOOM_SKIP_BUILD: "1",
    NODE_ENV: "production",
  };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, "scripts/start.mjs")],
      { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 60_000 },
      (err, _stdout, stderr) => resolve({ status: err ? ((err as { code?: number | string }).code as number) : 0, stderr }),
    );
  });
}

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
});

const PASSWORD = "a long enough password";

describe("backups of the embedded database", () => {
  it("a backup made while the server runs restores into a fresh DATA_DIR with every object, file and session", async () => {
    const first = await startServer();
    servers.push(first);
    const dataDir = first.dataDir;
    const tenant = await createTenant({ dataDir });
    const call = api(tenant.key, first.url);
    const ownerEmail = `backup-${Date.now()}@example.com`;
    await admin(["member", "add", "--workspace", tenant.workspaceId, "--email", ownerEmail, "--role", "admin"], dataDir);
    await admin(["user", "password", "--email", ownerEmail, "--password", PASSWORD], dataDir);
    const { folderId } = await admin(["folder", "create", "--workspace", tenant.workspaceId, "--name", "Spring"], dataDir);
    const bytes = await pngImage(64, 48);
    const ids = await uploadIds(
      tenant.key,
      [
        { name: "hero.png", type: "image/png", bytes },
        { name: "second.png", type: "image/png", bytes: await pngImage(32, 32) },
      ],
      { baseUrl: first.url, folderId },
    );
    for (const id of ids) expect((await finishedUpload(tenant.key, id, 60_000, first.url)).status).toBe("completed");
    // Wait for the creatives' media (dimensions, file) to be in place before taking the snapshot to compare.
    const listed = await allCreatives(tenant.key, first.url);
    expect(listed).toHaveLength(2);
    for (const c of listed) await creativeWhen(tenant.key, c.id, (x) => Boolean(x.mediaPath), 60_000, first.url);
    const creatives = await allCreatives(tenant.key, first.url);
    const hero = creatives.find((c) => c.fileName === "hero.png");
    const variant = await call(`/api/v1/creatives/${hero.id}/copy`, { method: "POST", json: { headline: "Kept", primaryText: "Across a restore" } });
    expect(variant.status).toBe(201);
    const webhook = await call("/api/v1/webhooks", { method: "PUT", json: { url: "http://127.0.0.1:9/hook" } });
    expect(webhook.status).toBeLessThan(300);
    const session = await signIn(ownerEmail, PASSWORD, "", first.url);
    expect(session.signedIn).toBe(true);

    // While the server runs: the CLI hands the command to the process that owns the database.
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-backup-"));
    const file = path.join(outDir, "adloom.backup.tar");
    const made = await adminCli(["backup", "create", "--out", file], dataDir);
    expect(made.json, made.stderr).toEqual({ ok: true, bytes: fs.statSync(file).size });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await adminCli(["backup", "create", "--out", file], dataDir)).json.error.code).toBe("conflict"); // never overwrites
    const listing = spawnSync("tar", ["-tf", file], { encoding: "utf8" });
    if (listing.status === 0) {
      const names = listing.stdout.trim().split("\n");
      expect(names).toEqual(expect.arrayContaining(["manifest.json", "database.tar.gz", "secrets/auth-secret"]));
      expect(names.filter((n) => n.startsWith("media/")).length).toBeGreaterThanOrEqual(2);
    }
    const before = {
      me: (await call("/api/v1/me")).body,
      creatives: await allCreatives(tenant.key, first.url),
      copy: (await call(`/api/v1/creatives/${hero.id}/copy`)).body,
      uploads: (await call("/api/v1/uploads")).body,
      webhook: (await call("/api/v1/webhooks")).body,
      media: Buffer.from(await (await fetch(first.url + hero.mediaPath, { headers: { Authorization: `Bearer ${tenant.key}` } })).arrayBuffer()),
    };
    expect(before.media.equals(bytes)).toBe(true);
    // A restore never writes under a running server, and leaves the server's lock with the server.
    const underServer = await adminCli(["backup", "restore", "--from", file], dataDir);
    expect(underServer.json.error.code, underServer.stderr).toBe("conflict");
    expect(underServer.json.error.message).toMatch(/is running on this DATA_DIR/);
    expect(currentOwner(path.join(dataDir, "db"))).not.toBeNull();
    await first.stop();

    // Restore: only into a fresh DATA_DIR, only while no server runs on it.
    const restoredDir = tempDataDir("restored");
    expect((await adminCli(["backup", "restore", "--from", path.join(outDir, "missing.tar")], restoredDir)).json.error.code).toBe("invalid_request");
    const restored = await adminCli(["backup", "restore", "--from", file], restoredDir);
    expect(restored.json, restored.stderr).toEqual({ ok: true });
    const again = await adminCli(["backup", "restore", "--from", file], restoredDir);
    expect(again.status).toBe(1);
    expect(again.json.error.code).toBe("conflict");

    const second = await startServer({ dataDir: restoredDir });
    servers.push(second);
    const call2 = api(tenant.key, second.url);
    expect((await call2("/api/v1/me")).body).toEqual(before.me);
    expect(await allCreatives(tenant.key, second.url)).toEqual(before.creatives);
    expect((await call2(`/api/v1/creatives/${hero.id}/copy`)).body).toEqual(before.copy);
    expect((await call2("/api/v1/uploads")).body).toEqual(before.uploads);
    expect((await call2("/api/v1/webhooks")).body).toEqual(before.webhook);
    const media = Buffer.from(await (await fetch(second.url + hero.mediaPath, { headers: { Authorization: `Bearer ${tenant.key}` } })).arrayBuffer());
    expect(media.equals(bytes)).toBe(true);
    // The session secret came along: a dashboard session signed before the backup still works.
    expect((await sessionFetch(session.jar, second.url)("/api/v1/me")).status).toBe(200);
    // And the restored installation keeps working: a new upload completes.
    const [fresh] = await uploadIds(tenant.key, [{ name: "after.png", type: "image/png", bytes }], { baseUrl: second.url });
    expect((await finishedUpload(tenant.key, fresh!, 60_000, second.url)).status).toBe("completed");
    await second.stop();
  }, 400_000);

  it("keeps the database owner-only, and a restore that fails, or is killed, midway leaves nothing in place", async () => {
    // No server: the CLI opens the database itself. PGlite writes its files 0666, so only the folder keeps others out.
    const source = await migratedDataDir("backup-src");
    const workspace = await adminCli(["workspace", "create", "--name", "Kept across a killed restore", "--plan", "pro"], source);
    expect(workspace.json, workspace.stderr).toMatchObject({ workspaceId: expect.any(String) });
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "adloom-backup-"));
    const good = path.join(outDir, "good.tar");
    const made = await adminCli(["backup", "create", "--out", good], source);
    expect(made.json, made.stderr).toMatchObject({ ok: true });
    expect(fs.statSync(path.join(source, "db")).mode & 0o077).toBe(0);

    // The same backup with two media entries that cannot both exist (a file, then a file inside it): the database
    // is unpacked before the media fail.
    const bad = path.join(outDir, "bad.tar");
    const handle = await fs.promises.open(bad, "wx", 0o600);
    const tar = new TarWriter(handle);
    for (const entry of listTar(good)) await tar.addBuffer(entry.name, readEntry(good, entry));
    await tar.addBuffer("media/clash", Buffer.from("a file"));
    await tar.addBuffer("media/clash/inner", Buffer.from("under a file"));
    await tar.finish();
    await handle.close();

    const target = tempDataDir("restore-retry");
    const failed = await adminCli(["backup", "restore", "--from", bad], target);
    expect(failed.status).toBe(1);
    expect(failed.json.error.code).toBe("invalid_request");
    const left = (dir: string) => (fs.existsSync(path.join(target, dir)) ? fs.readdirSync(path.join(target, dir)) : []);
    expect(left("db")).toEqual([]);
    expect(left("media")).toEqual([]);
    expect(left("secrets")).toEqual([]);
    const dbDir = path.join(target, "db");
    expect(fs.existsSync(lockFilePath(dbDir))).toBe(false); // the failed restore let go of the database's lock

    // A lock whose process is gone is taken over, as with a server's, here by the next restore.
    fs.writeFileSync(lockFilePath(dbDir), String(2 ** 22 + 12345));
    // The good backup with 64 MB more media in eight files, so the restore is still writing well after its database is
    // unpacked (it heeds a signal between files), and one more file, last, to compare.
    const big = path.join(outDir, "big.tar");
    const bigHandle = await fs.promises.open(big, "wx", 0o600);
    const bigTar = new TarWriter(bigHandle);
    for (const entry of listTar(good)) await bigTar.addBuffer(entry.name, readEntry(good, entry));
    const filler = Buffer.alloc(8 << 20, 7);
    for (let i = 0; i < 8; i++) await bigTar.addBuffer(`media/filler/${i}.bin`, filler);
    const kept = crypto.randomBytes(64 << 10);
    await bigTar.addBuffer("media/kept/last.bin", kept);
    await bigTar.finish();
    await bigHandle.close();
    // Media files being written, staged (or, before restores were all or nothing, in place).
    const writingMedia = () =>
      ["media/.partial/restore/filler", "media/filler"].some(
        (dir) => fs.existsSync(path.join(target, dir)) && fs.readdirSync(path.join(target, dir)).length > 0,
      );

    // SIGTERM (a process manager; Ctrl-C's SIGINT alike) while it writes: it stops, takes its staging back and says so.
    let done = false;
    const stopped = adminCli(["backup", "restore", "--from", big], target).finally(() => (done = true));
    await waitFor("the restore to write media", async () => done || writingMedia(), 60_000, 5);
    const writer = currentOwner(dbDir);
    expect(writer, "the restore ended before it could be stopped").not.toBeNull();
    process.kill(writer!, "SIGTERM");
    const interrupted = await stopped;
    expect(interrupted.json?.error?.code, interrupted.stderr).toBe("invalid_request");
    expect(interrupted.json.error.message).toMatch(/could not be restored \(nothing was kept\): interrupted by SIGTERM/);
    expect(fs.readdirSync(target).sort()).toEqual(["media"]); // no staging, no lock; the media folder it had to create
    expect(left("media")).toEqual([]);

    // Killed with -9 while it writes the media: nothing of it is in place, neither a database to open nor secrets
    // beside which a start would generate a new key.
    done = false;
    const killed = adminCli(["backup", "restore", "--from", big], target).finally(() => (done = true));
    await waitFor("the restore to write media", async () => done || writingMedia(), 60_000, 5);
    const restorer = currentOwner(dbDir);
    expect(restorer, "the restore ended before it could be killed").not.toBeNull();
    process.kill(restorer!, "SIGKILL");
    expect((await killed).status).not.toBe(0);
    expect(left("db")).toEqual([]);
    expect(left("secrets")).toEqual([]);

    // (1) A server start takes over the dead restore's lock and refuses, naming the command that restores again:
    // it neither opens a partial database nor creates a new one that the restore would then find in its way.
    const start = await startOn(target);
    expect(start.status, start.stderr).toBe(1);
    expect(start.stderr).toContain(`[adloom] a backup restore into ${target} was interrupted before it put anything in place`);
    expect(start.stderr).toContain(`run \`npm run --silent admin -- backup restore --from ${big}\``);
    expect(left("db")).toEqual([]);
    expect(left("secrets")).toEqual([]);

    // (2) The restore run again removes the staging the killed one left and starts over. While it writes, a server
    // starting on this DATA_DIR (the lock it takes before opening the database, through the server's own code) finds
    // the database taken.
    const retried = Date.now();
    const stagedAgain = () => {
      const note = fs.statSync(path.join(target, "restore.partial/restore.json"), { throwIfNoEntry: false });
      return note !== undefined && note.mtimeMs >= retried && writingMedia();
    };
    done = false;
    const restoring = adminCli(["backup", "restore", "--from", big], target).finally(() => (done = true));
    await waitFor("the restore to write media again", async () => done || stagedAgain(), 60_000, 5);
    let serverOpened = false;
    let heldBy: number | null = null;
    try {
      acquirePgliteLock(dbDir);
      serverOpened = true;
      fs.rmSync(lockFilePath(dbDir), { force: true });
    } catch (err) {
      if (!(err instanceof DatabaseBusyError)) throw err;
      heldBy = err.ownerPid;
    }
    const restored = await restoring;
    expect(serverOpened, "the database was free to open while the restore wrote it").toBe(false);
    expect(heldBy).not.toBe(process.pid);
    expect(restored.json, restored.stderr).toEqual({ ok: true });
    expect(fs.statSync(dbDir).mode & 0o077).toBe(0);
    expect(fs.statSync(path.join(target, "media/filler/7.bin")).size).toBe(filler.length);
    expect(fs.readFileSync(path.join(target, "media/kept/last.bin")).equals(kept)).toBe(true);
    expect(left("secrets").sort()).toEqual(
      listTar(good)
        .filter((e) => e.name.startsWith("secrets/"))
        .map((e) => e.name.slice(8))
        .sort(),
    );
    expect(fs.readdirSync(target).sort()).toEqual(["db", "media", "secrets"]); // no staging left, the lock released
    expect(left("media").sort()).toEqual(["filler", "kept"]);
    // The database is the backup's, whole: the workspace made before the backup is in it.
    const { PGlite } = await import("@electric-sql/pglite");
    const restoredDb = new PGlite(dbDir);
    try {
      const rows = (await restoredDb.query<{ name: string }>("SELECT name FROM workspaces WHERE id = $1", [workspace.json.workspaceId])).rows;
      expect(rows).toEqual([{ name: "Kept across a killed restore" }]);
    } finally {
      await restoredDb.close();
    }
    fs.rmSync(big);
    fs.rmSync(path.join(target, "media/filler"), { recursive: true });
    // Four restores, CLI runs that load the app and a server start: minutes when the suite's I/O is at its peak.
  }, 300_000);

  it("backup create on PostgreSQL points to pg_dump", async () => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      DATA_DIR: tempDataDir("pg-backup"),
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
      NODE_ENV: "production",
    };
    const result = spawnSync("npm", ["run", "--silent", "admin", "--", "backup", "create", "--out", "/tmp/x.tar"], {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout.trim()).error.message).toMatch(/pg_dump/);
  }, 60_000);
});
