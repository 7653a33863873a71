import fs from "node:fs";
import path from "node:path";
import { conflict } from "@/lib/errors";

/**
 * Where a backup restore (lib/backup/backup.ts) stages its work in DATA_DIR, next to the database's lock. It writes
 * everything into `restore.partial/`, renames that to `restore.ready/` once all of it is on disk (the sign that the
 * moves into place have begun), moves the files into db/, secrets/ and media/, then renames the folder to
 * `restore.done/` and removes it. A process that finds `restore.partial/` or `restore.ready/` holds the database's
 * lock of a restore that was killed: it must not open (or create) the database, which is absent or incomplete.
 */
export const RESTORE_STAGING = { partial: "restore.partial", ready: "restore.ready", done: "restore.done" } as const;

/** What a restore notes down first in its staging folder, so that a later process can name the backup. */
export const RESTORE_NOTE = "restore.json";

export interface InterruptedRestore {
  /** "writing": nothing of it is in place yet; "moving": some files may be in place, the rest still staged. */
  stage: "writing" | "moving";
  folder: string;
  /** The backup file it was restoring, when the restore got as far as noting it. */
  from: string | null;
}

export function interruptedRestore(dataDir: string): InterruptedRestore | null {
  for (const [stage, name] of [
    ["moving", RESTORE_STAGING.ready],
    ["writing", RESTORE_STAGING.partial],
  ] as const) {
    // A runtime path of the data dir, not a build input: the comment keeps Next's file tracer from following it.
    const folder = path.join(/* turbopackIgnore: true */ dataDir, name);
    if (!fs.existsSync(folder)) continue;
    let from: string | null = null;
    try {
      from = (JSON.parse(fs.readFileSync(path.join(folder, RESTORE_NOTE), "utf8")) as { from?: string }).from ?? null;
    } catch {
      /* killed before the note was on disk */
    }
    return { stage, folder, from };
  }
  return null;
}

/** The answer for anything but a restore that wants the embedded database of a DATA_DIR with an interrupted restore. */
export function interruptedRestoreMessage(dataDir: string, found: InterruptedRestore): string {
  const command = `npm run --silent admin -- backup restore --from ${found.from ?? "<the backup file>"}`;
  return found.stage === "moving"
    ? `a backup restore into ${dataDir} was interrupted while it moved the restored files into place (${found.folder}); run \`${command}\` to finish it`
    : `a backup restore into ${dataDir} was interrupted before it put anything in place (${found.folder}); run \`${command}\` to restore again, or remove ${found.folder} to start without the backup`;
}

/** Throws `conflict` when the database of `dbDir` must not be opened because a restore into its DATA_DIR was interrupted. */
export function refuseInterruptedRestore(dbDir: string): void {
  const dataDir = path.dirname(dbDir);
  const found = interruptedRestore(dataDir);
  if (found) throw conflict(interruptedRestoreMessage(dataDir, found));
}
