import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/services";
import { getPglite } from "@/lib/db/client";
import { interruptedRestore } from "@/lib/db/interrupted-restore";
import { acquirePgliteLock, currentOwner, DatabaseBusyError } from "@adloom/pglite-driver";
import { badRequest, conflict } from "@/lib/errors";
import { extractEntry, listTar, readEntry, TarWriter, type TarEntry } from "./tar";
import { beginStaging, commitStaging, moveIntoPlace, removeUncommitted, stagingOf, type RestorePlaces } from "./restore-staging";

/**
 * Backups of the embedded installation (docs/operations.md): one tar file holding
 *   manifest.json      what this is, when, which migrations the database had
 *   database.tar.gz    the PGlite data directory (PGlite's dumpDataDir, taken between transactions)
 *   secrets/…          DATA_DIR/secrets (the session secret, the job signing key, the credentials key)
 *   media/…            DATA_DIR/media (uploaded files, previews) with the local storage driver
 * Made by the process that owns the database (the server, through the operator socket, or the
 * CLI itself when no server runs), so it is consistent while the server runs: the database is
 * dumped first, then the media files, so every file a database row names is in the archive.
 * On PostgreSQL (DATABASE_URL) use pg_dump/pg_restore instead.
 */
const FORMAT = "adloom-backup";
const VERSION = 1;
const MEDIA_PARTIAL_DIR = ".partial";

interface Manifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  migrations: string[];
  media: "included" | "not included (S3 storage)";
}

function requireEmbedded(action: string): void {
  if (getConfig().database.kind !== "pglite") {
    throw badRequest(`backup ${action} is for the embedded database; with DATABASE_URL use pg_dump and pg_restore (docs/operations.md)`);
  }
}

/** Every regular file under `root`, as paths relative to it (skipping in-progress uploads). */
function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (child !== MEDIA_PARTIAL_DIR) walk(child);
      } else if (entry.isFile()) out.push(child);
    }
  };
  walk("");
  return out.sort();
}

export async function createBackup(outFile: string): Promise<{ ok: true; bytes: number }> {
  requireEmbedded("create");
  const config = getConfig();
  const out = path.resolve(outFile);
  if (!fs.existsSync(path.dirname(out))) throw badRequest(`The folder of --out does not exist: ${path.dirname(out)}`);
  if (fs.existsSync(out)) throw conflict(`${out} exists; backups never overwrite a file`);
  if (out.startsWith(config.dataDir + path.sep)) throw badRequest("Write the backup outside DATA_DIR");

  const pglite = getPglite() as unknown as { dumpDataDir(): Promise<Blob>; query<T>(sql: string): Promise<{ rows: T[] }> };
  const migrations = (
    await pglite.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name",
    )
  ).rows.map((r) => r.migration_name);
  const database = new Uint8Array(await (await pglite.dumpDataDir()).arrayBuffer());

  const partial = `${out}.partial`;
  const handle = await fs.promises.open(partial, "wx", 0o600);
  try {
    const tar = new TarWriter(handle);
    const manifest: Manifest = {
      format: FORMAT,
      version: VERSION,
      createdAt: new Date().toISOString(),
      migrations,
      media: config.storage.driver === "local" ? "included" : "not included (S3 storage)",
    };
    await tar.addBuffer("manifest.json", Buffer.from(JSON.stringify(manifest, null, 2) + "\n"));
    await tar.addBuffer("database.tar.gz", database);
    const secrets = path.join(config.dataDir, "secrets");
    for (const rel of filesUnder(secrets)) await tar.addFile(`secrets/${rel}`, path.join(secrets, rel));
    if (config.storage.driver === "local") {
      for (const rel of filesUnder(config.storage.dir)) {
        // A file deleted since the listing (its creative was deleted meanwhile) is simply not in the backup.
        await tar.addFile(`media/${rel}`, path.join(config.storage.dir, rel)).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== "ENOENT") throw err;
        });
      }
    }
    const bytes = await tar.finish();
    await handle.sync();
    await handle.close();
    fs.renameSync(partial, out);
    return { ok: true, bytes };
  } catch (err) {
    await handle.close().catch(() => undefined);
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

/** A relative archive path that stays inside its folder (no "..", no absolute paths). */
function safeRelative(name: string, prefix: string): string | null {
  const rel = name.slice(prefix.length);
  if (!rel || rel.startsWith("/") || rel.split("/").some((part) => part === ".." || part === "." || part === "")) return null;
  return rel;
}

/**
 * Restores a backup into a fresh DATA_DIR (no database, no media yet) while no server runs on it, all or nothing
 * (lib/backup/restore-staging.ts): a restore that fails, is interrupted (SIGINT, SIGTERM) or is killed leaves nothing
 * in place, and running it again finishes or starts over. The server's next start applies any migrations newer than
 * the backup.
 */
export async function restoreBackup(fromFile: string): Promise<{ ok: true }> {
  requireEmbedded("restore");
  const config = getConfig();
  const from = path.resolve(fromFile);
  const places: RestorePlaces = {
    dataDir: config.dataDir,
    dbDir: path.join(config.dataDir, "db"),
    media: config.storage.driver === "local" ? config.storage.dir : null,
  };
  // The server's own lock on the database, held from before the DATA_DIR is checked until the last file is moved
  // into place (or the staging is taken back): a server started meanwhile refuses to start.
  const release = lockForRestore(places.dbDir);
  const signals = deferSignals();
  try {
    return await restoreLocked(from, places, signals);
  } finally {
    signals.dispose();
    release();
  }
}

function lockForRestore(dbDir: string): () => void {
  const busy = (pid: number) => conflict(`A server or another restore (process ${pid}) is running on this DATA_DIR; stop it and restore into a fresh DATA_DIR`);
  const owner = currentOwner(dbDir);
  if (owner !== null) throw busy(owner); // this process too: it would have the database open
  try {
    return acquirePgliteLock(dbDir);
  } catch (err) {
    if (err instanceof DatabaseBusyError) throw busy(err.ownerPid);
    throw err;
  }
}

/**
 * SIGINT and SIGTERM (an operator's Ctrl-C, a process manager) do not end the restore where it stands: while it
 * writes, it stops at the next file and takes its staging back; once it is committed, the moves (renames, done in
 * milliseconds) finish first.
 */
function deferSignals() {
  let received: NodeJS.Signals | null = null;
  const note = (signal: NodeJS.Signals) => {
    received = signal;
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, note);
  return {
    throwIfReceived(): void {
      if (received) throw new Error(`interrupted by ${received}`);
    },
    dispose(): void {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, note);
    },
  };
}

async function restoreLocked(from: string, places: RestorePlaces, signals: ReturnType<typeof deferSignals>): Promise<{ ok: true }> {
  const { dataDir, dbDir, media } = places;
  const interrupted = interruptedRestore(dataDir);
  if (interrupted?.stage === "moving") {
    // Killed between its commit and its last move: all of it is on disk, only the renames are left.
    if (interrupted.from !== null && interrupted.from !== from) {
      throw conflict(
        `A restore of ${interrupted.from} into ${dataDir} was interrupted while it moved its files into place; run backup restore --from ${interrupted.from} to finish it`,
      );
    }
    moveIntoPlace(places);
    return { ok: true };
  }
  removeUncommitted(places); // a restore killed while it wrote: start over
  if (!fs.existsSync(from)) throw badRequest(`No backup file at ${from}`);
  if (!isEmptyDir(dbDir) || (media && !isEmptyDir(media))) {
    throw conflict(`DATA_DIR ${dataDir} already holds a database or media; restore into a fresh DATA_DIR`);
  }

  let entries: TarEntry[];
  try {
    entries = listTar(from);
  } catch (err) {
    throw badRequest(`${from} is not a readable backup: ${(err as Error).message}`);
  }
  const manifestEntry = entries.find((e) => e.name === "manifest.json");
  const databaseEntry = entries.find((e) => e.name === "database.tar.gz");
  const manifest = manifestEntry ? (JSON.parse(readEntry(from, manifestEntry).toString("utf8")) as Partial<Manifest>) : null;
  if (!manifest || manifest.format !== FORMAT || !databaseEntry) throw badRequest(`${from} is not an Adloom backup`);
  if ((manifest.version ?? 0) > VERSION) throw badRequest(`This backup has format version ${manifest.version}; this Adloom reads up to ${VERSION}`);

  // Every path is checked before anything is written, and everything is written into the staging folders first.
  const staging = stagingOf(places);
  const files: { entry: TarEntry; file: string; mode: number; dirMode: number }[] = [];
  for (const entry of entries) {
    const [folder, target, mode] = entry.name.startsWith("secrets/")
      ? ["secrets/", staging.writing.secrets, 0o600]
      : entry.name.startsWith("media/") && staging.media
        ? ["media/", staging.media, 0o644]
        : [null, "", 0];
    if (!folder) continue;
    const rel = safeRelative(entry.name, folder);
    // `.partial` is the media folder's own (in-progress uploads, this staging): never a stored file.
    if (!rel || (folder === "media/" && rel.split("/")[0] === MEDIA_PARTIAL_DIR)) throw badRequest(`Unsafe path in the backup: ${entry.name}`);
    // Runtime paths of the data dir, not build inputs: the comments keep Next's file tracer from following them.
    files.push({ entry, file: path.join(/* turbopackIgnore: true */ target, rel), mode, dirMode: folder === "secrets/" ? 0o700 : 0o755 });
  }

  try {
    beginStaging(places, from);
    // PGlite unpacks its own dump into the data directory on first open.
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(staging.writing.db, { loadDataDir: new Blob([new Uint8Array(readEntry(from, databaseEntry))]) });
    try {
      await db.waitReady;
      await db.query("SELECT 1");
    } finally {
      await db.close().catch(() => undefined);
    }
    for (const { entry, file, mode, dirMode } of files) {
      signals.throwIfReceived();
      fs.mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true, mode: dirMode });
      await extractEntry(from, entry, file, mode);
    }
    signals.throwIfReceived();
    commitStaging(places);
  } catch (err) {
    removeUncommitted(places);
    throw badRequest(`${from} could not be restored (nothing was kept): ${(err as Error).message}`);
  }
  moveIntoPlace(places);
  return { ok: true };
}
