import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations, listMigrations } from "@/lib/db/migrate";

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

function pglitePackageJson(): string {
  return path.resolve(import.meta.dirname, "../../node_modules/@electric-sql/pglite/package.json");
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

let emptyCluster: Promise<Blob> | undefined;

/**
 * A factory of empty in-memory databases that loads an initialised cluster from a dump (made once per PGlite
 * version, in the system temp folder) instead of running initdb: about one CPU-second against five. For the
 * scratch and shadow databases of createMigration, and for tests that want an empty database, not initdb itself.
 */
export async function emptyDatabaseFactory(): Promise<() => PGlite> {
  emptyCluster ??= (async () => {
    const version = JSON.parse(fs.readFileSync(pglitePackageJson(), "utf8")).version;
    const file = path.join(os.tmpdir(), `adloom-empty-cluster-${version}.tar`);
    if (!fs.existsSync(file)) {
      const fresh = new PGlite();
      await fresh.waitReady; // dumpDataDir does not wait for initdb: called earlier, it never returns
      const dump = await fresh.dumpDataDir("none");
      await fresh.close();
      const scratch = `${file}.${process.pid}-${randomBytes(4).toString("hex")}`;
      fs.writeFileSync(scratch, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(scratch, file); // atomic: a racing process's copy is the same cluster
    }
    return new Blob([fs.readFileSync(file)]);
  })();
  const dump = await emptyCluster;
  return () => new PGlite({ loadDataDir: dump });
}
