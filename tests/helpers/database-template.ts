import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations, listMigrations } from "@/lib/db/migrate";
import { pglitePackageJson } from "./empty-cluster";

/**
 * A migrated embedded database, made once per set of migrations and copied for each test that needs a
 * fresh one: creating a PGlite cluster and migrating it costs about five seconds of CPU, copying it a
 * fraction of one. The copy is the database a first `npm start` makes (tests of the first start itself,
 * of migrations and of restores use empty directories instead).
 */
function templateDir(): string {
  const hash = createHash("sha256");
  hash.update(JSON.parse(fs.readFileSync(pglitePackageJson(), "utf8")).version);
  for (const dir of listMigrations().migrationDirectories) {
    hash.update(dir.path);
    if (dir.migrationFile.content.tag === "ok") hash.update(dir.migrationFile.content.value);
  }
  return path.join(os.tmpdir(), `adloom-db-template-${hash.digest("hex").slice(0, 16)}`);
}

let made: Promise<string> | undefined;

/** The template's directory, made on first use (several test processes may race: the first rename wins). */
function migratedTemplate(): Promise<string> {
  made ??= (async () => {
    const dir = templateDir();
    if (fs.existsSync(dir)) return dir;
    const scratch = `${dir}.${process.pid}-${randomBytes(4).toString("hex")}`;
    const pglite = new PGlite(scratch);
    try {
      await applyMigrations(pglite);
    } finally {
      await pglite.close();
    }
    try {
      fs.renameSync(scratch, dir);
    } catch {
      fs.rmSync(scratch, { recursive: true, force: true }); // another process made it first
    }
    return dir;
  })();
  return made;
}

/** Puts a freshly migrated embedded database into `dataDir` (as `db/`, where the server looks for it). */
export async function seedMigratedDatabase(dataDir: string): Promise<void> {
  fs.cpSync(await migratedTemplate(), path.join(dataDir, "db"), { recursive: true });
}

// Empty databases from a dump of an initialised cluster: tests/helpers/empty-cluster.ts.
export { emptyDatabaseFactory } from "./empty-cluster";
