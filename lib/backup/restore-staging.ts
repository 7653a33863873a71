import fs from "node:fs";
import path from "node:path";
import { RESTORE_NOTE, RESTORE_STAGING } from "@/lib/db/interrupted-restore";

/**
 * A restore is all or nothing (docs/operations.md "Backups"): it writes the database and secrets into
 * DATA_DIR/restore.partial and the media into the media folder's own `.partial/restore` (the media folder may be a
 * mount of its own, and renames only stay atomic within one file system; backups and the storage driver leave
 * `.partial` alone), makes all of it durable, and only then renames restore.partial to restore.ready: from that
 * rename on the restore is finished, by this process or, after a kill, by the next restore. The moves into place are
 * renames, each atomic, and skip what an earlier run moved already.
 */
export interface RestorePlaces {
  dataDir: string;
  dbDir: string;
  /** The local storage folder; null with S3 storage (no media in the backup to restore). */
  media: string | null;
}

/** The staging folders of a restore into `places`. */
export function stagingOf(places: RestorePlaces) {
  const partial = path.join(places.dataDir, RESTORE_STAGING.partial);
  const ready = path.join(places.dataDir, RESTORE_STAGING.ready);
  return {
    partial,
    ready,
    done: path.join(places.dataDir, RESTORE_STAGING.done),
    media: places.media ? path.join(/* turbopackIgnore: true */ places.media, ".partial", "restore") : null,
    /** Where each part is written while the restore is in progress. */
    writing: { db: path.join(partial, "db"), secrets: path.join(partial, "secrets") },
  };
}

/** Removes what a restore staged and did not commit (a failed one, or one killed while writing). Nothing in place is touched. */
export function removeUncommitted(places: RestorePlaces): void {
  const staging = stagingOf(places);
  // The media first: the DATA_DIR folder is what tells a later process that a restore was interrupted.
  if (staging.media) removeMediaStaging(staging.media);
  fs.rmSync(staging.partial, { recursive: true, force: true });
  fs.rmSync(staging.done, { recursive: true, force: true });
}

function removeMediaStaging(mediaStaging: string): void {
  fs.rmSync(mediaStaging, { recursive: true, force: true });
  try {
    fs.rmdirSync(path.dirname(mediaStaging)); // .partial, when no upload is in it
  } catch {
    /* absent, or holding an upload's partial file */
  }
}

/** Creates the staging folders, noting the backup file first so that a later process can name it. */
export function beginStaging(places: RestorePlaces, from: string): void {
  const staging = stagingOf(places);
  fs.mkdirSync(staging.partial, { mode: 0o700 });
  fs.writeFileSync(path.join(staging.partial, RESTORE_NOTE), JSON.stringify({ from }) + "\n", { mode: 0o600 });
  fs.mkdirSync(staging.writing.db, { mode: 0o700 });
  fs.mkdirSync(staging.writing.secrets, { mode: 0o700 });
  if (staging.media) fs.mkdirSync(staging.media, { recursive: true, mode: 0o755 });
}

/**
 * Everything is written: flushes it to disk, then renames restore.partial to restore.ready (the commit). A kill before
 * the rename leaves nothing in place; after it, the next restore finishes the moves.
 */
export function commitStaging(places: RestorePlaces): void {
  const staging = stagingOf(places);
  if (staging.media) syncTree(staging.media);
  syncTree(staging.partial);
  fs.renameSync(staging.partial, staging.ready);
  syncDir(places.dataDir);
}

/** Moves a committed restore's files into place (what an interrupted run moved already is skipped), then removes the staging. */
export function moveIntoPlace(places: RestorePlaces): void {
  const staging = stagingOf(places);
  const touched = new Set<string>();
  // The database last: until it is there, DATA_DIR does not look like an installation.
  moveInto(path.join(staging.ready, "secrets"), path.join(places.dataDir, "secrets"), 0o700, touched);
  if (staging.media && places.media) moveInto(staging.media, places.media, 0o755, touched);
  moveInto(path.join(staging.ready, "db"), places.dbDir, 0o700, touched);
  for (const dir of touched) syncDir(dir);
  if (staging.media) removeMediaStaging(staging.media);
  // Renamed away first, so that a kill while it is being deleted leaves no sign of an unfinished restore.
  fs.rmSync(staging.done, { recursive: true, force: true });
  fs.renameSync(staging.ready, staging.done);
  syncDir(places.dataDir);
  fs.rmSync(staging.done, { recursive: true, force: true });
}

/** Renames each entry of `from` into `to`, going into folders that exist on both sides (a secrets folder that exists). */
function moveInto(from: string, to: string, dirMode: number, touched: Set<string>): void {
  if (!fs.existsSync(from)) return;
  fs.mkdirSync(/* turbopackIgnore: true */ to, { recursive: true, mode: dirMode });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(/* turbopackIgnore: true */ from, entry.name);
    const target = path.join(/* turbopackIgnore: true */ to, entry.name);
    if (entry.isDirectory() && fs.statSync(target, { throwIfNoEntry: false })?.isDirectory()) {
      moveInto(source, target, dirMode, touched);
    } else {
      fs.renameSync(source, target);
      touched.add(to);
    }
  }
}

function syncTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(/* turbopackIgnore: true */ dir, entry.name);
    if (entry.isDirectory()) syncTree(child);
    else if (entry.isFile()) syncFile(child);
  }
  syncDir(dir);
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A folder's entries (new names, renames) made durable; some platforms cannot open a folder for that. */
function syncDir(dir: string): void {
  try {
    syncFile(dir);
  } catch (err) {
    if (!["EISDIR", "EPERM", "EINVAL", "EBADF"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
  }
}
