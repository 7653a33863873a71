import { acquirePgliteLock, DatabaseBusyError } from "@adloom/pglite-driver/lock";
import path from "node:path";
import { ConfigError } from "@/lib/config";
import { getCredentialKeyRing } from "@/lib/credentials/keys";
import { interruptedRestore, interruptedRestoreMessage } from "@/lib/db/interrupted-restore";
import { ensureMigrated } from "@/lib/db/migrate-configured";
import { ensureSandboxSchema } from "@/lib/platforms/sandbox";
import { getConfig } from "@/lib/services";

/** Why the server cannot start: printed as one `[adloom] …` line (or block) before the process exits. */
export class StartRefused extends Error {}

/**
 * What must hold before the server answers anything: the configuration is valid, instances sharing PostgreSQL
 * have the key that seals platform tokens, no other process has the embedded database (a server, a backup restore),
 * the key ring exists (generated into DATA_DIR on the embedded default's first start, so any backup holds it), and
 * the database is migrated. It runs inside the server process on the connection the server keeps, so a start opens
 * the database once. The app's migrations run first, then the sandbox ad platform's own
 * (lib/platforms/sandbox/migrations), which adopt the tables the app's migrations handed over; the names applied
 * come back as `sandbox/<name>`.
 */
export async function prepareDatabase(): Promise<string[]> {
  let config: ReturnType<typeof getConfig>;
  try {
    config = getConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new StartRefused(err.message);
    throw err;
  }
  if (config.database.kind === "postgres" && !config.credentials.key) {
    throw new StartRefused(
      "Invalid configuration:\n  - CREDENTIALS_KEY: required with DATABASE_URL (the same value on every instance), e.g. openssl rand -base64 32",
    );
  }
  if (config.database.kind === "pglite") claimEmbeddedDatabase(config.database.dir);
  getCredentialKeyRing();
  try {
    const applied = await ensureMigrated();
    const sandbox = await ensureSandboxSchema();
    return [...applied, ...sandbox.map((name) => `sandbox/${name}`)];
  } catch (err) {
    throw new StartRefused(`could not prepare the database: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The embedded database's lock, taken before anything is written into DATA_DIR (the generated key included): a
 * second server, or a backup restore still writing this DATA_DIR, holds it, and this start must not touch its files.
 * A restore that was killed left its lock behind, taken over here, and its staging folder: this start refuses too,
 * rather than create a database (or a key) that the restore would then find in its way.
 */
function claimEmbeddedDatabase(dir: string): void {
  try {
    acquirePgliteLock(dir);
  } catch (err) {
    if (!(err instanceof DatabaseBusyError)) throw err;
    throw new StartRefused(
      `the embedded database in ${dir} is in use by process ${err.ownerPid} (another server, or a backup restore still writing it); start again once it has exited`,
    );
  }
  const dataDir = path.dirname(dir);
  const restore = interruptedRestore(dataDir);
  if (restore) throw new StartRefused(interruptedRestoreMessage(dataDir, restore));
}
