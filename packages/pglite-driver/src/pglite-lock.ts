import fs from "node:fs";
import path from "node:path";

/**
 * PGlite is a single-connection database inside one process: two processes must
 * never open the same data directory. The owner writes its pid into a lock file;
 * a stale lock (its process is gone) is taken over.
 */
export class DatabaseBusyError extends Error {
  constructor(
    readonly ownerPid: number,
    dir: string,
  ) {
    super(`The embedded database in ${dir} is open in process ${ownerPid}`);
    this.name = "DatabaseBusyError";
  }
}

export function lockFilePath(dbDir: string): string {
  return path.join(path.dirname(dbDir), "db.lock");
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid holding the lock, if that process is still alive. */
export function currentOwner(dbDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockFilePath(dbDir), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock for this process or throws DatabaseBusyError. Released when the process exits, or earlier by the
 * function returned (for a process that holds it only for a while, as a backup restore does); when this process
 * already held it, that function leaves it to the earlier holder.
 */
export function acquirePgliteLock(dbDir: string): () => void {
  const file = lockFilePath(dbDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      const release = () => {
        process.off("exit", release);
        try {
          if (fs.readFileSync(file, "utf8").trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = currentOwner(dbDir);
      if (owner === process.pid) return () => undefined;
      if (owner !== null) throw new DatabaseBusyError(owner, dbDir);
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the database lock ${file}`);
}
