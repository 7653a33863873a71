import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

// No import of the app here: packages/ tests use this too (a package knows nothing of the app).

export function pglitePackageJson(): string {
  return path.resolve(import.meta.dirname, "../../node_modules/@electric-sql/pglite/package.json");
}

let emptyCluster: Promise<Blob> | undefined;

/**
 * A factory of empty in-memory databases that loads an initialised cluster from a dump (made once per PGlite
 * version, in the system temp folder) instead of running initdb: about one CPU-second against five. For the
 * scratch and shadow databases of createMigration, and for tests that want an empty database, not initdb itself.
 * In memory, or in `dataDir` (an empty or missing directory) when given.
 */
export async function emptyDatabaseFactory(): Promise<(dataDir?: string) => PGlite> {
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
  return (dataDir) => (dataDir ? new PGlite(dataDir, { loadDataDir: dump }) : new PGlite({ loadDataDir: dump }));
}
